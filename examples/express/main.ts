/**
 * Run the Express example against a real provider:
 *
 *   AV_ISSUER=https://op.example.org AV_CLIENT_ID=… AV_CLIENT_SECRET=… \
 *   AV_REDIRECT_URI=http://127.0.0.1:3000/callback AV_COOKIE_SECRET=$(openssl rand -base64 32) \
 *   npx tsx examples/express/main.ts
 *
 * With AV_METRICS_PORT=9464 the SDK's metrics are served for Prometheus at
 * http://127.0.0.1:9464/metrics (and spans printed with AV_TRACE_CONSOLE=1): ./telemetry.ts.
 */
import { startServer } from './app.js';
import { startTelemetry, telemetryFromEnv } from './telemetry.js';

function required(name: string): string {
  const value = process.env[name];
  if (!value) {
    console.error(`Set ${name} (see examples/express/README.md).`);
    process.exit(1);
  }
  return value;
}

const telemetry = telemetryFromEnv();
if (telemetry) {
  await startTelemetry(telemetry);
  console.log(`Metrics for Prometheus on http://127.0.0.1:${telemetry.metricsPort}/metrics`);
}

const redirectUri = required('AV_REDIRECT_URI');
const redirect = new URL(redirectUri);
const running = await startServer({
  issuer: required('AV_ISSUER'),
  clientId: required('AV_CLIENT_ID'),
  clientSecret: required('AV_CLIENT_SECRET'),
  redirectUri,
  cookieSecret: process.env.AV_COOKIE_SECRET || undefined,
  enableIdTokenFlow: process.env.AV_ENABLE_ID_TOKEN_FLOW === '1',
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? (redirect.port || 3000)),
});
// The URL only: never print the secrets.
console.log(`Express example listening on ${running.url} (callback ${redirect.pathname})`);
