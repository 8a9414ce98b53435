// Tenant scoping, declared once per root field. Every Query, Mutation and Subscription field says
// which of its arguments name a dialog or a response (`tenant: { dialogs: ["input.id"] }`), or
// that it reads and writes only the caller's own rows (`tenant: "caller"`: lists, search, lookups
// whose query filters by `ctx.scope.tenantId`, creating a dialog), or that it shows nothing of any
// tenant (`tenant: "none"`). This plugin checks the named ids through the caller's scope
// (src/auth/tenant-scope.ts) before the resolver runs (before `subscribe`, for a subscription),
// so another tenant's id fails like one that does not exist, and a resolver never has to remember
// the check. A root field without a declaration fails the schema build. The rule is kept in the
// field's extensions (`tenant`), where test/tenant-isolation.test.ts reads it.
import SchemaBuilder, {
  BasePlugin,
  type FieldKind,
  type FieldNullability,
  type InputFieldMap,
  type PothosOutputFieldConfig,
  PothosSchemaError,
  type SchemaTypes,
  type TypeParam,
} from "@pothos/core";
import type { GraphQLFieldResolver } from "graphql";
import { chainTargetNotFound } from "../store/retention-window.js";
import type { Context } from "./context.js";

/** Argument paths ("id", "input.dialogId") naming ids the caller's tenant must own. */
export interface NamedIds {
  dialogs?: string[];
  /** Responses written to or read (not found: "Response <id> not found"). */
  responses?: string[];
  /** Responses chained to or copied (not found says it may have expired or been deleted). */
  chainedTo?: string[];
}

export type TenantRule = NamedIds | "caller" | "none";

const pluginName = "tenantScope";
const ROOT_KINDS = new Set<FieldKind>(["Query", "Mutation", "Subscription"]);

// Pothos's option types are extended by declaration merging, which needs its namespace and its
// type parameters as declared.
/* eslint-disable @typescript-eslint/no-namespace, @typescript-eslint/no-unused-vars */
declare global {
  export namespace PothosSchemaTypes {
    export interface Plugins<Types extends SchemaTypes> {
      tenantScope: TenantScopePlugin<Types>;
    }
    export interface FieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      ParentShape = unknown,
      Type extends TypeParam<Types> = TypeParam<Types>,
      Nullable extends FieldNullability<Type> = FieldNullability<Type>,
      Args extends InputFieldMap = InputFieldMap,
      ResolveShape = unknown,
      ResolveReturnShape = unknown,
    > {
      /** Root fields: which arguments name tenant-owned ids (see src/schema/tenant-scope-plugin.ts). */
      tenant?: TenantRule;
    }
  }
}
/* eslint-enable @typescript-eslint/no-namespace, @typescript-eslint/no-unused-vars */

/** The value at a dotted argument path, as an id; null when absent. */
function idAt(args: Record<string, unknown>, path: string): string | null {
  let value: unknown = args;
  for (const key of path.split(".")) value = (value as Record<string, unknown> | null | undefined)?.[key];
  return value == null ? null : String(value);
}

/** Checks every id `rule` names in `args` as the caller's tenant; throws NotFoundError otherwise. */
export async function checkNamedIds(rule: NamedIds, args: Record<string, unknown>, ctx: Context) {
  const chainedNotFound = (id: string) => chainTargetNotFound(id, ctx.store.retentionMs);
  for (const path of rule.chainedTo ?? []) await ctx.scope.optionalResponse(idAt(args, path), chainedNotFound);
  for (const path of rule.responses ?? []) await ctx.scope.optionalResponse(idAt(args, path));
  for (const path of rule.dialogs ?? []) await ctx.scope.optionalDialog(idAt(args, path));
}

export class TenantScopePlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>) {
    if (!ROOT_KINDS.has(fieldConfig.kind)) return fieldConfig;
    const rule = (fieldConfig.pothosOptions as { tenant?: TenantRule }).tenant;
    if (!rule) {
      throw new PothosSchemaError(
        `${fieldConfig.parentType}.${fieldConfig.name} declares no tenant rule (src/schema/tenant-scope-plugin.ts)`,
      );
    }
    return { ...fieldConfig, extensions: { ...fieldConfig.extensions, tenant: rule } };
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    // A subscription's ids are checked once, when it starts; its resolve runs per event.
    if (fieldConfig.kind === "Subscription") return resolver;
    return this.checked(resolver, fieldConfig);
  }

  override wrapSubscribe(
    subscribe: GraphQLFieldResolver<unknown, Types["Context"], object> | undefined,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> | undefined {
    return subscribe && this.checked(subscribe, fieldConfig);
  }

  private checked(
    next: GraphQLFieldResolver<unknown, Types["Context"], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types["Context"], object> {
    const rule = fieldConfig.extensions?.tenant as TenantRule | undefined;
    if (!rule || typeof rule === "string") return next;
    return async (parent, args, ctx, info) => {
      await checkNamedIds(rule, args as Record<string, unknown>, ctx as Context);
      return next(parent, args, ctx, info);
    };
  }
}

SchemaBuilder.registerPlugin(pluginName, TenantScopePlugin);

export default pluginName;
