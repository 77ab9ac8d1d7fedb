import { parseArgs } from 'node:util';
import { redact } from '../../core/redact.js';
import { type DoctorCheck, runDoctor } from '../doctor.js';
import { type CliCommand, CliUsageError } from '../io.js';

const HELP = `Usage: affiliation-validation doctor --issuer URL --client-id ID --redirect-uri URL [options]

Checks a configuration against a live provider: discovery, issuer, signing keys, and — with one
authorization request that is not followed — that the client_id and redirect_uri are registered.
Exits 1 when any check fails.

Options:
  --issuer URL                 the provider's issuer ({base_url})
  --client-id ID               the registered client_id
  --redirect-uri URL           the redirect URI your application sends
  --token-auth-method METHOD   client_secret_basic (default) or client_secret_post
  --timeout-ms N               time limit per request in milliseconds (default 10000)
  --json                       print the checklist as JSON
  -h, --help                   show this help

The client secret is read only from the environment variable AV_CLIENT_SECRET; when it is set, the
token endpoint is asked to authenticate the client (with a code that cannot be valid).
`;

const MARK: Record<DoctorCheck['status'], string> = { pass: '✓', fail: '✗', skip: '–' };

/** `affiliation-validation doctor`: a checklist of a merchant's configuration against a live OP. */
export const doctorCommand: CliCommand = async (argv, io) => {
  if (argv.some((a) => a === '--client-secret' || a.startsWith('--client-secret='))) {
    // Never echo the value: it would land in shell history and logs already, do not add to it.
    throw new CliUsageError(
      'the client secret is never accepted as an argument; set the environment variable AV_CLIENT_SECRET',
    );
  }
  const { values } = parseArgs({
    args: argv,
    options: {
      issuer: { type: 'string' },
      'client-id': { type: 'string' },
      'redirect-uri': { type: 'string' },
      'token-auth-method': { type: 'string' },
      'timeout-ms': { type: 'string' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    io.stdout.write(HELP);
    return 0;
  }
  const missing = (['issuer', 'client-id', 'redirect-uri'] as const).filter((k) => !values[k]);
  if (missing.length) throw new CliUsageError(`missing ${missing.map((m) => `--${m}`).join(', ')}`);
  const method = values['token-auth-method'];
  if (method !== undefined && method !== 'client_secret_basic' && method !== 'client_secret_post') {
    throw new CliUsageError('--token-auth-method must be client_secret_basic or client_secret_post');
  }
  let timeoutMs: number | undefined;
  if (values['timeout-ms'] !== undefined) {
    timeoutMs = Number(values['timeout-ms']);
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) {
      throw new CliUsageError('--timeout-ms must be a positive integer (milliseconds)');
    }
  }
  const clientSecret = io.env.AV_CLIENT_SECRET || undefined;

  const report = await runDoctor({
    issuer: values.issuer!,
    clientId: values['client-id']!,
    redirectUri: values['redirect-uri']!,
    clientSecret,
    tokenEndpointAuthMethod: method,
    timeoutMs,
    fetch: io.fetch,
  });

  if (values.json) {
    io.stdout.write(`${redact(JSON.stringify(report, null, 2), [clientSecret])}\n`);
  } else {
    const width = Math.max(...report.checks.map((c) => c.title.length));
    const lines = report.checks.map(
      (c) => `${MARK[c.status]} ${c.title.padEnd(width)}  ${redact(c.detail, [clientSecret])}`,
    );
    const failed = report.checks.filter((c) => c.status === 'fail').length;
    const summary = failed ? `${failed} problem${failed === 1 ? '' : 's'} found.` : 'No problems found.';
    io.stdout.write(`${lines.join('\n')}\n\n${summary}\n`);
  }
  return report.ok ? 0 : 1;
};
