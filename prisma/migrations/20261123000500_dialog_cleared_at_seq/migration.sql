-- AlterTable
ALTER TABLE "Dialog" ADD COLUMN     "clearedAtSeq" INTEGER;

