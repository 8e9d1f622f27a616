// `arena models`: the model servers answering on this machine (and any --server), each with its models and, where
// the server reports them, its parallel slots and context size.
import { HOSTED_PROVIDERS, type HostedListing, listHosted } from '../../runtime/hosted-models.js';
import { type DiscoveredServer, discoverServers, serverRoot, USUAL_SERVERS } from '../../runtime/model-discovery.js';
import { parseFlags, takeRepeated, UsageError } from '../args.js';

export const MODELS_HELP = `Usage: arena models [--server URL]... [--only] [--hosted] [--json]

List the model servers that answer: the usual local ones (${USUAL_SERVERS.map((u) => u.replace('http://127.0.0.1:', ':')).join(', ')} on
127.0.0.1: Ollama, llama.cpp, LM Studio, vLLM) and every --server URL (e.g. http://127.0.0.1:9000/v1). For each: its
kind, version, models (with Ollama's digest), parallel slots and context size where the server reports them.

Options:
  --server URL   probe this server too (repeatable)
  --only         probe only the --server URLs, not the usual ports
  --hosted       also list hosted APIs (${HOSTED_PROVIDERS.map((p) => p.name).join(', ')}): each whose key variable is set
                 (${HOSTED_PROVIDERS.map((p) => p.api_key_env).join(', ')}) is asked for its models; the others are
                 listed with the variable to set, and nothing is sent
  --json         one JSON object: {servers: [{url, base_url, kind, version, models, slots, context, model_path}],
                 hosted: [{id, name, base_url, provider, api_key_env, configured, models, error}] (with --hosted)}
`;

export async function modelsCommand(argv: readonly string[]): Promise<number> {
  const servers = takeRepeated(argv, 'server');
  const { flags, positionals } = parseFlags(servers.rest, { json: 'boolean', only: 'boolean', hosted: 'boolean', help: 'boolean' });
  if (flags.help) {
    process.stdout.write(MODELS_HELP);
    return 0;
  }
  if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])} (arena models --help)`);
  for (const url of servers.values) {
    try {
      serverRoot(url);
    } catch (error) {
      throw new UsageError(`--server: ${(error as Error).message}`);
    }
  }
  if (flags.only === true && servers.values.length === 0) throw new UsageError('--only needs at least one --server URL');
  const [found, hosted] = await Promise.all([
    discoverServers(servers.values, flags.only !== true),
    flags.hosted === true ? listHosted(process.env) : Promise.resolve(null),
  ]);
  if (flags.json === true) {
    process.stdout.write(`${JSON.stringify({ servers: found, ...(hosted ? { hosted } : {}) })}\n`);
    return 0;
  }
  if (found.length === 0) process.stdout.write('no model server answered (start one, e.g. "ollama serve", or name it with --server URL)\n');
  for (const s of found) process.stdout.write(serverLines(s));
  for (const h of hosted ?? []) process.stdout.write(hostedLines(h));
  return 0;
}

function hostedLines(h: HostedListing): string {
  if (!h.configured) return `${h.base_url}  (${h.name}: not asked; set ${h.api_key_env} to list its models)\n`;
  if (h.models === null) return `${h.base_url}  (${h.name}: ${h.error})\n`;
  const lines = [`${h.base_url}  (${h.name}, key from ${h.api_key_env})`, ...h.models.map((m) => `  ${m.id}`)];
  if (h.models.length === 0) lines.push('  (no models)');
  return `${lines.join('\n')}\n`;
}

function serverLines(s: DiscoveredServer): string {
  const facts = [s.kind + (s.version ? ` ${s.version}` : ''), `slots ${s.slots ?? 'unknown'}`, `context ${s.context ?? 'unknown'}`].join(
    ', ',
  );
  const lines = [`${s.base_url}  (${facts})`];
  for (const m of s.models) lines.push(`  ${m.id}${m.digest ? `  ${m.digest.slice(0, 12)}` : ''}`);
  if (s.models.length === 0) lines.push('  (no models)');
  return `${lines.join('\n')}\n`;
}
