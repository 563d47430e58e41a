// Generates generated/api.d.ts from a service's OpenAPI document with openapi-typescript's Node
// API, as its CLI would, plus one transform: `format: binary` (the printable prescription's
// application/pdf answers) is typed Blob, what a client receives, instead of string.
//   node generate.mjs [document: URL or file, default http://127.0.0.1:3000/openapi.json] [output]
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';

const [input = 'http://127.0.0.1:3000/openapi.json', output = 'generated/api.d.ts'] =
  process.argv.slice(2);

const BLOB = ts.factory.createTypeReferenceNode(ts.factory.createIdentifier('Blob'));
const NULL = ts.factory.createLiteralTypeNode(ts.factory.createNull());

const source = /^https?:\/\//.test(input)
  ? new URL(input)
  : JSON.parse(readFileSync(input, 'utf8'));
let ast;
try {
  ast = await openapiTS(source, {
    // A member with a default (an item's `sustituible`) stays optional in what a client sends;
    // answers say what they always carry with `required`.
    defaultNonNullable: false,
    transform(schema) {
      if (schema.format !== 'binary') return undefined;
      return schema.nullable ? ts.factory.createUnionTypeNode([BLOB, NULL]) : BLOB;
    },
  });
} catch (err) {
  const hint = /^https?:\/\//.test(input)
    ? ' Is the service running there? (`npm start` in the repository root)'
    : '';
  process.stderr.write(`Could not read ${input}: ${err.message}.${hint}\n`);
  process.exit(1);
}
// generated/ is git-ignored: a fresh clone has no such folder.
mkdirSync(dirname(output), { recursive: true });
writeFileSync(output, astToString(ast));
process.stdout.write(`${input} → ${output}\n`);
