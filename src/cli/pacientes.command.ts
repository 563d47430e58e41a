import { Command } from 'commander';
import { authSettings } from '../auth/auth.settings.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AppConfig } from '../config/app-config.js';
import type { RecifradoRun, Restantes } from '../recetas/cifrado/recifrado.js';
import { recetasSettings } from '../recetas/recetas.settings.js';
import type { Output } from './output.js';

/** `pacientes cifrar`: the patient's data at rest (SPEC 10). */
export function pacientesCommand(config: AppConfig, out: Output): Command {
  const pacientes = new Command('pacientes').description("the patients' data at rest (SPEC 10)");
  pacientes
    .command('cifrar')
    .description(
      "seal every patient document (with its content hash's salt) and SPEC 9.2 personal member (name, sex, birth date, member number, diagnosis) still in clear, and re-seal under the first key of PATIENT_DATA_KEYS every one sealed under another (the rotation); walks the rows that need it in batches of short transactions, safe while the service runs; reports the rows left under each key id and exits 1 while any remain",
    )
    .option('--lote <n>', 'rows per batch (one transaction each)', '1000')
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { lote: string; json?: boolean }) => {
      const lote = Number(flags.lote);
      if (!Number.isInteger(lote) || lote < 1 || lote > 100_000)
        throw new DomainError('VALIDATION_FAILED', '--lote must be an integer from 1 to 100000');
      // The command's code is loaded when it runs (main.ts).
      const { CifradoPaciente } = await import('../recetas/cifrado/cifrado-paciente.js');
      const { cifrarPendientes } = await import('../recetas/cifrado/recifrado.js');
      const { withCliDatabase } = await import('./cli-database.js');
      const cifrado = new CifradoPaciente(
        config.settings(authSettings),
        config.settings(recetasSettings),
      );
      const run = await withCliDatabase(config, [], (ds) =>
        cifrarPendientes(ds, cifrado, { lote }),
      );
      out.result(flags.json, run, describe);
      // SPEC 11.3: done only when nothing is left (an old key may be dropped then).
      if (run.restantes.total > 0)
        throw new DomainError('INTERNAL', left(run.restantes, cifrado.claves.claves));
    });
  return pacientes;
}

function describe(r: RecifradoRun): string {
  return `sealed ${r.en_claro} prescriptions with patient data in clear and re-sealed ${r.otra_clave} under key "${r.clave_actual}" (${r.lotes} batches, ${r.duration_ms} ms); ${r.restantes.total} left`;
}

/** Why rows are left, per key: the operator's message, never a stack. */
function left(r: Restantes, held: ReadonlyMap<string, Buffer>): string {
  const reasons = Object.entries(r.por_clave).map(([kid, n]) =>
    held.has(kid)
      ? `${n} under key "${kid}", which does not open them or was written meanwhile (run again)`
      : `${n} under key "${kid}", which PATIENT_DATA_KEYS does not hold`,
  );
  if (r.en_claro > 0) reasons.unshift(`${r.en_claro} in clear, written meanwhile (run again)`);
  return `${r.total} prescriptions left: ${reasons.join('; ')}`;
}
