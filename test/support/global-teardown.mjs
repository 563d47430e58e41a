export default async function globalTeardown() {
  try {
    await globalThis.__dropTestDatabase?.();
  } finally {
    await globalThis.__stopCluster?.();
  }
}
