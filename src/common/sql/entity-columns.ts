import { getMetadataArgsStorage } from 'typeorm';

/** One column of an entity, as its decorators declare it. */
export interface EntityColumn {
  /** The entity's property. */
  property: string;
  /** The table's column. */
  column: string;
  /** The declared type (`text`, `bigint`, `date`…), `[]` appended for an array. */
  type: string;
  /** Filled by the database (an identity, a sequence, a generated column). */
  generated: boolean;
  /** TypeORM writes it (`insert: false`: the database, e.g. a trigger, does). */
  insert: boolean;
  /** TypeORM reads it (`select: false`: only SQL that names it does). */
  select: boolean;
}

/**
 * An entity's columns in declaration order, read from its decorators (TypeORM's metadata
 * storage: no connection needed), so that tuned SQL names the columns the entity declares
 * rather than a list spelled by hand; test/schema-drift.e2e-spec.ts holds the entities to the
 * migrations. Works for the bench too, which imports the `*.sql.ts` files that call it.
 */
export function entityColumns(target: abstract new () => object): EntityColumn[] {
  const storage = getMetadataArgsStorage();
  const generated = new Set(
    storage.generations.filter((g) => g.target === target).map((g) => g.propertyName),
  );
  return storage.filterColumns(target).map((c) => ({
    property: c.propertyName,
    column: c.options.name ?? c.propertyName,
    type: `${String(c.options.type)}${c.options.array ? '[]' : ''}`,
    generated:
      generated.has(c.propertyName) ||
      c.options.generatedType !== undefined ||
      c.options.generatedIdentity !== undefined,
    insert: c.options.insert !== false,
    select: c.options.select !== false,
  }));
}

/**
 * Values TypeORM hydrates as text where pg would not: a `date` as `YYYY-MM-DD` (pg: a Date);
 * a bigint as its decimal string (pg's default too, cast so no type parser can change it).
 */
const READ_AS_TEXT = new Set(['bigint', 'date']);

/**
 * The SELECT list that reads a row of `target` in the shape TypeORM's find gives it: every
 * selected column, named as its property, text where the entity's hydration gives text.
 * `alias` qualifies the columns (`r.cuir`).
 */
export function entitySelectList(target: abstract new () => object, alias?: string): string {
  return entityColumns(target)
    .filter((c) => c.select)
    .map((c) => {
      const ref = alias ? `${alias}.${c.column}` : c.column;
      const cast = READ_AS_TEXT.has(c.type) ? `${ref}::text` : ref;
      return cast === c.column && c.column === c.property ? cast : `${cast} AS "${c.property}"`;
    })
    .join(', ');
}
