import { Command, InvalidArgumentError } from 'commander';
import type {
  ApiClientsService,
  ClientSettings,
  ClientView,
  IssuedCredentials,
} from '../auth/api-clients.service.js';
import { RECETA_WEBHOOK_TYPES } from '../recetas/notificacion/webhook-types.js';
import type { Output } from './output.js';

const onOff = (value: string): boolean => {
  if (value !== 'on' && value !== 'off') throw new InvalidArgumentError('expected on or off');
  return value === 'on';
};
const positiveInt = (value: string): number => {
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > 1_000_000) {
    throw new InvalidArgumentError('expected a whole number from 1 to 1000000');
  }
  return Number(value);
};

const platformIdFlag = (value: string): string => {
  if (value !== 'none' && !/^\d{4}$/.test(value))
    throw new InvalidArgumentError('expected 4 digits, or none');
  return value;
};

/** `02,06` → ['02', '06']; `none` → [] (checked against INDEC by the service). */
const jurisdictionsFlag = (value: string): string[] => {
  if (value === 'none') return [];
  const codes = value.split(',').map((c) => c.trim());
  if (codes.some((c) => !/^\d{2}$/.test(c)))
    throw new InvalidArgumentError(
      'expected INDEC codes of 2 digits, comma-separated (02,06), or none',
    );
  return codes;
};

interface SettingsFlags {
  webhookUrl?: string;
  jurisdicciones?: string[];
  scopes?: string;
  rateLimit?: number;
  cuirUniqueness?: boolean;
  cuirRules?: boolean;
  platformId?: string;
  json?: boolean;
}

async function settingsFrom(flags: SettingsFlags): Promise<ClientSettings> {
  // Loaded already: `run` gave the service, whose module this is.
  const { parseScopes } = await import('../auth/api-clients.service.js');
  return {
    webhookUrl: flags.webhookUrl === 'none' ? null : flags.webhookUrl,
    scopes: flags.scopes === undefined ? undefined : parseScopes(flags.scopes),
    rateLimitPerMinute: flags.rateLimit,
    cuirUniqueness: flags.cuirUniqueness,
    cuirRules: flags.cuirRules,
    cuirPlatformId: flags.platformId === 'none' ? null : flags.platformId,
    jurisdicciones: flags.jurisdicciones,
  };
}

const withSettingsFlags = (cmd: Command) =>
  cmd
    .option('--rate-limit <n>', 'requests per minute', positiveInt)
    .option('--cuir-uniqueness <on|off>', 'refuse a second CUIR for the same groupId+itemId', onOff)
    .option('--cuir-rules <on|off>', 'enforce the type/subtype compatibility rules', onOff)
    .option(
      '--platform-id <NNNN|none>',
      "the client's prescribing-platform id in its CUIRs (none: CUIR_PLATFORM_ID)",
      platformIdFlag,
    )
    .option(
      '--jurisdicciones <codes|none>',
      'a health authority (fiscalizacion:read, granted only by name): the INDEC jurisdictions it reads, e.g. 02,06',
      jurisdictionsFlag,
    )
    .option('--json', 'print one JSON object on stdout');

/** `clients …`: the credentials tool of contract §2. `run` supplies the service on an open database. */
export function clientsCommand(
  run: (fn: (svc: ApiClientsService) => Promise<unknown>) => Promise<void>,
  out: Output,
): Command {
  const clients = new Command('clients').description('issue and manage API client credentials');

  withSettingsFlags(
    clients
      .command('create')
      .description('create a client; prints its key and secret (the secret is shown only now)')
      .requiredOption('--name <name>', 'client (provider platform) name')
      .requiredOption(
        '--scopes <list>',
        'comma-separated scopes, or "all" (a pharmacy: recetas:verify,dispensas:write; all never includes fiscalizacion:read)',
      ),
  ).action((flags: SettingsFlags & { name: string }) =>
    run(async (svc) =>
      printIssued(out, await svc.create(flags.name, await settingsFrom(flags)), flags.json),
    ),
  );

  clients
    .command('list')
    .description('list clients (never secrets)')
    .option('--json', 'print one JSON object on stdout')
    .action((flags: { json?: boolean }) =>
      run(async (svc) =>
        out.result(flags.json, { clients: await svc.list() }, (r) => r.clients.map(describe)),
      ),
    );

  withSettingsFlags(
    clients
      .command('update <ref>')
      .description('change scopes, rate limit, CUIR policies or webhook of a client (by id or key)')
      .option('--scopes <list>', 'comma-separated scopes, or "all"')
      .option(
        '--webhook-url <url|none>',
        `where the client's events are POSTed (${RECETA_WEBHOOK_TYPES.join(', ')}; a new signing secret is printed once); none removes it. A private or loopback target needs WEBHOOK_ALLOW_PRIVATE=true`,
      ),
  ).action((ref: string, flags: SettingsFlags) =>
    run(async (svc) =>
      printView(out, await svc.update(ref, await settingsFrom(flags)), flags.json),
    ),
  );

  clients
    .command('rotate <ref>')
    .description('issue a second secret (both work); --finish drops the old one')
    .option('--finish', 'end the rotation: only the newest secret stays valid')
    .option('--json', 'print one JSON object on stdout')
    .action((ref: string, flags: { finish?: boolean; json?: boolean }) =>
      run(async (svc) =>
        flags.finish
          ? printView(out, await svc.finishRotation(ref), flags.json)
          : printIssued(out, await svc.rotate(ref), flags.json),
      ),
    );

  clients
    .command('revoke <ref>')
    .description('revoke a client: its credentials stop working within seconds')
    .option('--json', 'print one JSON object on stdout')
    .action((ref: string, flags: { json?: boolean }) =>
      run(async (svc) => printView(out, await svc.revoke(ref), flags.json)),
    );

  return clients;
}

function printIssued(out: Output, { client, key, secret }: IssuedCredentials, json?: boolean) {
  out.result(json, { ...client, key, secret }, () => [
    describe(client),
    `  X-API-Key:    ${key}`,
    `  X-API-Secret: ${secret}`,
    '  (the secret is shown only now; it is stored as a hash)',
  ]);
}

function printView(out: Output, view: ClientView, json?: boolean): void {
  out.result(json, view, (v) => [
    describe(v),
    ...(v.webhook_secret
      ? [
          `  Webhook:         ${v.webhook_url}`,
          `  Signing secret:  ${v.webhook_secret}  (shown only now; verify X-Signature with it)`,
        ]
      : []),
  ]);
}

function describe(c: ClientView): string {
  const state = c.active ? (c.rotating ? 'active, rotating' : 'active') : 'revoked';
  return `${c.name} (${c.id}) key=${c.key} [${state}] scopes=${c.scopes.join(',') || '-'} rate=${c.rate_limit_per_minute}/min cuir-uniqueness=${c.cuir_uniqueness ? 'on' : 'off'} cuir-rules=${c.cuir_rules ? 'on' : 'off'} platform-id=${c.cuir_platform_id ?? 'default'}${c.jurisdicciones.length > 0 ? ` jurisdicciones=${c.jurisdicciones.join(',')}` : ''}`;
}
