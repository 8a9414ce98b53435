-- AlterTable
ALTER TABLE "Dialog" ADD COLUMN     "headDepth" INTEGER;


-- Backfill existing dialogs.
UPDATE "Dialog" d SET "headDepth" = r.depth FROM "Response" r WHERE r.id = d."headId";
