import { SIGNATURE_SCHEMES } from '@dialog-relay/contracts';

/**
 * Each command's own usage: `dialog-relay <command> --help` prints it (exit 0); `--help` alone, or
 * `help`, prints the overview (USAGE in main.ts). Secrets can come from the environment or stdin:
 * an argument is visible to every user of the machine in `ps`.
 */
/** The --scheme choices of sign, as its usage prints them. */
export const SCHEME_CHOICES = SIGNATURE_SCHEMES.join('|');

const REDIS_NOTE = "Uses the services' Redis variables: REDIS_URL or REDIS_CLUSTER_NODES or REDIS_SENTINELS, REDIS_PREFIX, QUEUE_SHARDS.";

export const SECRET_ENV = 'DIALOG_RELAY_SECRET';
export const WEBHOOK_SECRET_ENV = 'DIALOG_RELAY_WEBHOOK_SECRET';
export const CLIENT_RECORD_ENV = 'DIALOG_RELAY_CLIENT_RECORD';

const webhookSecretSources = `The webhook secret (whsec_…) comes from one of: --secret WHSEC, --secret-stdin (the first line of stdin),
or the environment variable ${WEBHOOK_SECRET_ENV}; prefer the last two (an argument shows in ps).`;

export const COMMAND_HELP: Readonly<Record<string, string>> = {
  sign: `usage: dialog-relay sign --client ID (--secret S | --secret-stdin | env ${SECRET_ENV}) [--scheme ${SCHEME_CHOICES}]
       [--event assist_dialog] [--content TEXT] [--send-url URL] [--from ID] [--to ID] [--msg-id ID] [--group ID]
       [--url URL] [--json]
Prints a signed request body for the client and a curl command that sends it. The curl line's URL is --url, else
DIALOG_RELAY_URL, else (through npm run cli) the running npm start's API, else http://127.0.0.1:8080.
The client's secret comes from one of: --secret S, --secret-stdin (the first line of stdin), or the
environment variable ${SECRET_ENV}; prefer the last two (an argument shows in ps).`,
  listen: `usage: dialog-relay listen (--secret WHSEC | --secret-stdin | env ${WEBHOOK_SECRET_ENV}) [--port 9999] [--host 127.0.0.1]
       [--count N] [--tolerance 300] [--json]
Receives auto_dialog deliveries on http://HOST:PORT/, verifies each (Standard Webhooks) and prints it; stops
after N deliveries, or on SIGINT/SIGTERM.
${webhookSecretSources}`,
  'send-test': `usage: dialog-relay send-test URL (--secret WHSEC | --secret-stdin | env ${WEBHOOK_SECRET_ENV}) [--client demo]
       [--at UNIX_SECONDS] [--timeout-ms 10000] [--json]
POSTs one signed sample delivery to your send_url, as the worker would, and reports the answer.
${webhookSecretSources}`,
  deliveries: `usage: dialog-relay deliveries list --conversation ID | --client ID [--limit 20] [--json]
       dialog-relay deliveries show <delivery_id> [--json]
The auto_dialog deliveries kept in Redis and their attempts. ${REDIS_NOTE}`,
  conversation: `usage: dialog-relay conversation status|stop|resume <conversation_id> [--json]
A conversation's auto replies: status, stop (a human took over) or resume. ${REDIS_NOTE}`,
  clients: `usage: dialog-relay clients list [--json]
       dialog-relay clients add <id> (<json> | --record-stdin | env ${CLIENT_RECORD_ENV}) [--json]
       dialog-relay clients remove <id> [--json]
The clients kept in Redis (secrets are never printed). The record of add ('{"secret":"…","webhook_secret":"whsec_…"}')
holds secrets: give it on stdin (--record-stdin reads all of stdin) or in the environment variable
${CLIENT_RECORD_ENV} rather than as an argument (an argument shows in ps). ${REDIS_NOTE}`,
  'dead-letters': `usage: dialog-relay dead-letters list [limit] [--json]
       dialog-relay dead-letters replay <delivery_id> [--json]
Deliveries that failed for good, kept DEAD_LETTER_TTL_S (30 days) from death or replay. ${REDIS_NOTE}`,
  shards: `usage: dialog-relay shards migrate [--json]
Moves what lasts (stop flags, contexts, deliveries, dead letters) after a QUEUE_SHARDS change (docs/design/scaling.md). ${REDIS_NOTE}`,
};

/** The usage of the command argv names, when argv asks for help on one (`<command> … --help`). */
export function commandHelp(argv: readonly string[]): string | undefined {
  const [command] = argv;
  return command === undefined || !Object.hasOwn(COMMAND_HELP, command) ? undefined : COMMAND_HELP[command];
}
