import 'reflect-metadata';
import {
  getMetadataStorage,
  IsInt,
  IsString,
  registerDecorator,
  validateSync,
  type ValidationError,
} from 'class-validator';
import { cacheValidationMetadata } from './metadata-cache.js';

class Base {
  @IsString()
  a!: unknown;
}

class Child extends Base {
  @IsInt({ groups: ['strict'] })
  @IsInt()
  b!: unknown;
}

class Late {
  @IsString()
  x!: unknown;
}

const make = <T extends object>(type: new () => T, values: Record<string, unknown>): T =>
  Object.assign(new type(), values);
const failing = (errors: ValidationError[]) =>
  errors.map((e) => `${e.property}:${Object.keys(e.constraints ?? {}).join(',')}`).sort();

describe('the validation metadata cache', () => {
  const storage = getMetadataStorage();
  const uncached = {
    plain: storage.getTargetValidationMetadatas(Child, '', false, false),
    strict: storage.getTargetValidationMetadatas(Child, '', false, true, ['strict']),
    errors: failing(
      validateSync(make(Child, { a: 1, b: 'two', extra: 3 }), {
        whitelist: true,
        forbidNonWhitelisted: true,
      }),
    ),
  };
  cacheValidationMetadata(storage);

  it('answers what class-validator answers, the inherited rules too, and keeps the answer per option set', () => {
    const plain = storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(plain).toEqual(uncached.plain);
    expect(plain.map((m) => m.propertyName).sort()).toEqual(['a', 'b', 'b']);
    expect(storage.getTargetValidationMetadatas(Child, '', false, false)).toBe(plain);
    const strict = storage.getTargetValidationMetadatas(Child, '', false, true, ['strict']);
    expect(strict).toEqual(uncached.strict);
    expect(strict).not.toBe(plain);
    expect(storage.groupByPropertyName(plain)).toBe(storage.groupByPropertyName(plain));
  });

  it('validates exactly as before: the same failures, unknown members refused', () => {
    const options = { whitelist: true, forbidNonWhitelisted: true };
    expect(uncached.errors).toEqual(['a:isString', 'b:isInt', 'extra:whitelistValidation']);
    expect(failing(validateSync(make(Child, { a: 1, b: 'two', extra: 3 }), options))).toEqual(
      uncached.errors,
    );
    expect(validateSync(make(Child, { a: 'one', b: 2 }), options)).toEqual([]);
  });

  it('is never stale: a rule registered after a validation applies to the next one', () => {
    expect(validateSync(make(Late, { x: 'ok', y: 'bad' }))).toEqual([]);
    registerDecorator({
      name: 'isOk',
      target: Late,
      propertyName: 'y',
      validator: { validate: (v: unknown) => v === 'ok' },
    });
    expect(failing(validateSync(make(Late, { x: 'ok', y: 'bad' })))).toEqual(['y:isOk']);
  });

  it('installs once per storage', () => {
    const wrapped = storage.getTargetValidationMetadatas;
    cacheValidationMetadata(storage);
    expect(storage.getTargetValidationMetadatas).toBe(wrapped);
  });
});
