import { getMetadataArgsStorage } from 'typeorm';

/** One column of an entity, as its decorators declare it. */
interface EntityColumn {
  property: string;
  column: string;
  /** The declared type, `[]` appended for an array. */
  type: string;
  /** Filled by the database (an identity, a sequence, a generated column). */
  generated: boolean;
  insert: boolean;
  select: boolean;
}

/** An entity's columns in declaration order, from its decorators: tuned SQL names no list by hand. */
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

/** Values TypeORM hydrates as text where pg might not (a `date`, a bigint). */
const READ_AS_TEXT = new Set(['bigint', 'date']);

/** The SELECT list that reads a row of `target` as TypeORM's find gives it; `alias` qualifies columns. */
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
