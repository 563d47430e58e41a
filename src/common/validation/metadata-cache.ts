import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
/** A rule as the storage keeps it (class-validator does not export the type by name). */
type ValidationMetadata = ReturnType<Storage['getTargetValidationMetadatas']>[number];
type Grouped = Record<string, ValidationMetadata[]>;

const INSTALLED = Symbol.for('prescription-registry.validation-metadata-cache');

/**
 * Keeps class-validator's answer to "which rules does this class have" instead of working it
 * out again on every validate() call. Upstream, `getTargetValidationMetadatas` tests every
 * decorated class of the app for being an ancestor of the target, and `groupByPropertyName`
 * regroups the result, on each call and for each nested object (typestack/class-validator#2686,
 * open); together about a quarter of a registration body's validation (BENCHMARKS.md,
 * session 14). The answer depends only on the decorators, which run when the classes load, so
 * it is kept per class and per option set, and dropped whenever a rule is registered (a
 * `registerDecorator` at run time), so it can never be stale. Installed once per storage (the
 * storage is a process-wide singleton); the validation itself, and every error, is unchanged.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): void {
  const marked = storage as Storage & { [INSTALLED]?: true };
  if (marked[INSTALLED]) return;
  marked[INSTALLED] = true;

  let byTarget = new WeakMap<object, Map<string, ValidationMetadata[]>>();
  let grouped = new WeakMap<ValidationMetadata[], Grouped>();

  const resolve = storage.getTargetValidationMetadatas.bind(storage);
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    // Group names are identifiers: NUL never occurs in one, so the joined text is unambiguous.
    const key = `${schema}\0${always}\0${strictGroups}\0${groups?.join('\0') ?? ''}`;
    let forTarget = byTarget.get(target);
    if (!forTarget) byTarget.set(target, (forTarget = new Map<string, ValidationMetadata[]>()));
    let rules = forTarget.get(key);
    if (!rules) forTarget.set(key, (rules = resolve(target, schema, always, strictGroups, groups)));
    return rules;
  };

  const group = storage.groupByPropertyName.bind(storage);
  storage.groupByPropertyName = (rules) => {
    let answer = grouped.get(rules);
    if (!answer) grouped.set(rules, (answer = group(rules)));
    return answer;
  };

  const add = storage.addValidationMetadata.bind(storage);
  storage.addValidationMetadata = (metadata) => {
    byTarget = new WeakMap();
    grouped = new WeakMap();
    add(metadata);
  };
}
