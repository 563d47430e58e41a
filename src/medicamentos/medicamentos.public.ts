import { DomainError } from '../common/errors/domain-error.js';
import type { ErrorDetail } from '../common/errors/error-codes.js';

/** What the medicamentos module shares with the others besides its services (.dependency-cruiser.cjs). */

/**
 * 422 MEDICAMENTO_DESCONOCIDO naming each item whose `codigo` is among `unknown`
 * (MedicamentosService.codigosDesconocidos), or null when none is: a prescription's items at
 * registration, a dispensation's items at dispensation (SPEC 9.2).
 */
export function medicamentoDesconocido(
  items: ReadonlyArray<{ codigo?: string | null }>,
  unknown: ReadonlySet<string>,
): DomainError | null {
  if (unknown.size === 0) return null;
  const details: ErrorDetail[] = items.flatMap((i, n) =>
    i.codigo && unknown.has(i.codigo)
      ? [
          {
            field: `items[${n}].codigo`,
            issue: `${i.codigo} is not a code of the medication catalogue`,
          },
        ]
      : [],
  );
  if (details.length === 0) return null;
  return new DomainError(
    'MEDICAMENTO_DESCONOCIDO',
    `Not in the medication catalogue: ${details.map((d) => d.field).join(', ')} (see GET /v1/medicamentos/buscar); nothing was written`,
    details,
  );
}
