import { Command } from 'commander';
import { authSettings } from '../auth/auth.settings.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AppConfig } from '../config/app-config.js';
import { DatoPacienteIlegible } from '../recetas/cifrado/datos-paciente.js';
import { CifradoPaciente } from '../recetas/cifrado/cifrado-paciente.js';
import { cifrarPendientes, type RecifradoRun } from '../recetas/cifrado/recifrado.js';
import { recetasSettings } from '../recetas/recetas.settings.js';
import { openCliDatabase } from './cli-database.js';
import type { Output } from './output.js';

/** `pacientes cifrar`: the patient's data at rest (SPEC 10). */
export function pacientesCommand(config: AppConfig, out: Output): Command {
  const pacientes = new Command('pacientes').description("the patients' data at rest (SPEC 10)");
  pacientes
    .command('cifrar')
    .description(
      'seal every patient document and SPEC 9.2 personal member (name, sex, birth date, member number, diagnosis) still in clear, and re-seal under the first key of PATIENT_DATA_KEYS every one sealed under another (the rotation); batches of short transactions, safe while the service runs',
    )
    .option('--lote <n>', 'ids per batch (one transaction each)', '1000')
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { lote: string; json?: boolean }) => {
      const lote = Number(flags.lote);
      if (!Number.isInteger(lote) || lote < 1 || lote > 100_000)
        throw new DomainError('VALIDATION_FAILED', '--lote must be an integer from 1 to 100000');
      const cifrado = new CifradoPaciente(
        config.settings(authSettings),
        config.settings(recetasSettings),
      );
      const db = await openCliDatabase(config, []);
      try {
        const run = await cifrarPendientes(db.dataSource, cifrado, { lote }).catch((err) => {
          // A row under a key not held: the operator's message, not a stack.
          if (err instanceof DatoPacienteIlegible) throw new DomainError('INTERNAL', err.message);
          throw err;
        });
        if (flags.json) out.json(run);
        else out.line(describe(run));
      } finally {
        await db.close();
      }
    });
  return pacientes;
}

function describe(r: RecifradoRun): string {
  return `sealed ${r.en_claro} prescriptions with patient data in clear and re-sealed ${r.otra_clave} under key "${r.clave_actual}" (${r.lotes} batches, ${r.duration_ms} ms)`;
}
