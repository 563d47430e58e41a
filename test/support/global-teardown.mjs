export default async function globalTeardown() {
  await globalThis.__dropTestDatabase?.();
  await globalThis.__stopEmbedded?.();
}
