import { Command } from 'commander';
import type { PurgeResult } from '../auditoria/audit-purger.js';
import type { SealRun } from '../auditoria/audit-sealer.js';
import type { AuditSealsRepository } from '../auditoria/audit-seals.repository.js';
import type { VerifyReport } from '../auditoria/audit-verifier.js';
import { auditoriaSettings } from '../auditoria/auditoria.settings.js';
import { DomainError } from '../common/errors/domain-error.js';
import type { AppConfig } from '../config/app-config.js';
import type { Output } from './output.js';

/** `auditoria verificar | sellar | purgar`: the event log's operator commands (contract §8). */
export function auditoriaCommand(config: AppConfig, out: Output): Command {
  // Each command's code is loaded when it runs (main.ts).
  const withSellos = async <T>(
    fn: (sellos: AuditSealsRepository) => Promise<T>,
    as: 'runtime' | 'migration' = 'runtime',
  ): Promise<T> => {
    const { AuditSealEntity } = await import('../auditoria/entities/audit-seal.entity.js');
    const { AuditPurgeEntity } = await import('../auditoria/entities/audit-purge.entity.js');
    const { AuditSealsRepository } = await import('../auditoria/audit-seals.repository.js');
    const { withCliDatabase } = await import('./cli-database.js');
    return withCliDatabase(
      config,
      [AuditSealEntity, AuditPurgeEntity],
      (ds) => fn(new AuditSealsRepository(ds)),
      { as },
    );
  };
  const auditoria = new Command('auditoria').description(
    'the sealed event log (docs/contract.md §8)',
  );
  auditoria
    .command('verificar')
    .description(
      'recompute every seal, the chain and every sealed event; exit 1 naming the first that does not match',
    )
    .option(
      '--desde <sello>',
      'only the seals after this one, its stored hash being the first link (the last seal a previous run printed)',
    )
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { desde?: string; json?: boolean }) => {
      const { AuditVerifier } = await import('../auditoria/audit-verifier.js');
      const report = await withSellos((s) => new AuditVerifier(s).verify({ desde: flags.desde }));
      out.result(flags.json, report, describeReport);
      if (!report.ok) {
        throw new DomainError('INTERNAL', `event log verification failed: ${report.problemas[0]}`);
      }
    });
  auditoria
    .command('sellar')
    .description('seal the finished events now (the service does it every AUDIT_SEAL_SECONDS)')
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { json?: boolean }) => {
      const { AuditSealer } = await import('../auditoria/audit-sealer.js');
      out.result(flags.json, await withSellos((s) => new AuditSealer(s).sealNow()), describeSeal);
    });
  auditoria
    .command('purgar')
    .description(
      'delete the events of the seals entirely older than a date at least AUDIT_RETENTION_YEARS ago (the seals stay)',
    )
    .requiredOption(
      '--antes-de <YYYY-MM-DD>',
      'only seals whose every event is older than this date (UTC)',
    )
    .option('--json', 'print one JSON object on stdout')
    .action(async (flags: { antesDe: string; json?: boolean }) => {
      const { AuditPurger } = await import('../auditoria/audit-purger.js');
      // Deleting events is the operator's, not the service's: as DATABASE_MIGRATION_URL when set.
      const result = await withSellos(
        (s) =>
          new AuditPurger(s, config.settings(auditoriaSettings).retentionYears).purge(
            flags.antesDe,
          ),
        'migration',
      );
      out.result(flags.json, result, describePurge);
    });
  return auditoria;
}

function describeReport(r: VerifyReport): string[] {
  const after = r.desde ? ` after seal ${r.desde.id} ${r.desde.hash}` : '';
  const counts = `${r.eventos} events in ${r.sellos} seals (${r.sellos_purgados} purged)${after}, ${r.pendientes} pending (not yet sealed)`;
  if (!r.ok) {
    return [`event log verification FAILED after ${counts}:`, ...r.problemas.map((p) => `  ${p}`)];
  }
  const head = r.ultimo_sello ? `; last seal ${r.ultimo_sello.id} ${r.ultimo_sello.hash}` : '';
  return [`event log verified: ${counts}${head}`];
}

function describeSeal(run: SealRun): string {
  if (run.outcome === 'skipped') return 'skipped: another instance is sealing';
  if (run.seals.length === 0) return 'nothing to seal';
  const events = run.seals.reduce((n, s) => n + s.eventos, 0);
  return `sealed ${events} events in ${run.seals.length} seal(s): ${run.seals.map((s) => s.id).join(', ')}`;
}

function describePurge(r: PurgeResult): string {
  if (!r.purga) return `nothing to purge: no unpurged seal is entirely older than ${r.antes_de}`;
  const dropped = r.particiones.length > 0 ? `; months dropped: ${r.particiones.join(', ')}` : '';
  return `purged ${r.eventos} events of ${r.sellos} seal(s) older than ${r.antes_de} (purge ${r.purga}); the seals remain${dropped}`;
}
