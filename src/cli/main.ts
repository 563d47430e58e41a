import { Command } from 'commander';
import pino from 'pino';
import type { ApiClientsService } from '../auth/api-clients.service.js';
import { DomainError } from '../common/errors/domain-error.js';
import { authSettings } from '../auth/auth.settings.js';
import { ConfigError } from '../config/app-config.js';
import { loadAppConfig } from '../slices.js';
import { webhooksSettings } from '../webhooks/webhooks.settings.js';
import { catalogoCommand } from './catalogo.command.js';
import { auditoriaCommand } from './auditoria.command.js';
import { clientsCommand } from './clients.command.js';
import { clustersCommand } from './clusters.command.js';
import { pacientesCommand } from './pacientes.command.js';
import { particionesCommand } from './particiones.command.js';
import { processOutput as out } from './output.js';

async function main(argv: string[]): Promise<number> {
  const config = loadAppConfig(process.env);
  // A command's code is loaded when it runs: the others' (the PDF renderer, the audit verifier,
  // Nest) never are.
  const withClients = async (fn: (svc: ApiClientsService) => Promise<unknown>) => {
    const { ApiClientEntity } = await import('../auth/api-client.entity.js');
    const { ApiClientsRepository } = await import('../auth/api-clients.repository.js');
    const { ApiClientsService } = await import('../auth/api-clients.service.js');
    const { withCliDatabase } = await import('./cli-database.js');
    await withCliDatabase(config, [ApiClientEntity], (ds) =>
      fn(
        new ApiClientsService(
          new ApiClientsRepository(ds.getRepository(ApiClientEntity)),
          config.settings(authSettings),
          config.settings(webhooksSettings),
        ),
      ),
    );
  };
  const program = new Command('prescription-registry')
    .description('operator tool of the Prescription Registry Service')
    .configureOutput({
      writeOut: (s) => out.line(s.trimEnd()),
      writeErr: (s) => out.error(s.trimEnd()),
    });
  program.addCommand(clientsCommand(withClients, out));
  program.addCommand(catalogoCommand(config, out));
  program.addCommand(auditoriaCommand(config, out));
  program.addCommand(pacientesCommand(config, out));
  program.addCommand(particionesCommand(config, out));
  program.addCommand(clustersCommand(out));
  await program.parseAsync(argv);
  return 0;
}

main(process.argv)
  .then((code) => process.exit(code))
  .catch((err: unknown) => {
    if (err instanceof DomainError || err instanceof ConfigError)
      out.error(`error: ${err.message}`);
    else pino({ level: 'error' }, pino.destination(2)).error({ err }, 'command failed');
    process.exit(1);
  });
