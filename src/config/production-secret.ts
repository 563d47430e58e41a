/**
 * The rule every server secret set by an operator follows (API_SECRET_PEPPER,
 * VERIFICACION_PUBLICA_CLAVE): required in production, at least 32 characters there (128 bits
 * of randomness in base64 is the floor for an HMAC key) and never a value the documentation
 * shows; at least 16 elsewhere when set.
 */
export const MIN_PRODUCTION_SECRET = 32;
const MIN_DEVELOPMENT_SECRET = 16;

/** The pepper used when none is set: fine on a laptop, refused in production. */
export const DEVELOPMENT_PEPPER = 'development-only-pepper-change-me';

/** Values shipped in examples and docs: a production start with one of them is refused. */
const PLACEHOLDERS = [DEVELOPMENT_PEPPER, 'change-me-to-a-long-random-value'];

/** What is wrong with the secret `name` (a ConfigError's line), or null. */
export function secretProblem(
  name: string,
  value: string | undefined,
  nodeEnv: string,
): string | null {
  if (nodeEnv === 'production') {
    if (!value) return `${name}: is required when NODE_ENV=production`;
    if (value.length < MIN_PRODUCTION_SECRET || PLACEHOLDERS.includes(value))
      return `${name}: must be at least ${MIN_PRODUCTION_SECRET} random characters, not a documented placeholder, when NODE_ENV=production`;
  } else if (value !== undefined && value.length < MIN_DEVELOPMENT_SECRET) {
    return `${name}: must be at least ${MIN_DEVELOPMENT_SECRET} characters`;
  }
  return null;
}
