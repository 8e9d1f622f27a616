// Loopback TLS for agent clients that accept only https (the OpenClaw watcher). Node has no X.509 builder and
// `openssl` is not on every machine, so a self-signed ECDSA P-256 certificate is encoded here in DER directly.
// The certificate lives in <dataDir>/tls/ and names 127.0.0.1, ::1 and localhost; clients trust it with
// SSL_CERT_FILE=<path>. The listener serves only the ClawArena agent routes.
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { EngineErrorCode } from '../contract/errors.js';
import type { ClawArenaService } from '../protocols/clawarena/service.js';
import { installErrorHandler } from './error-reply.js';
import { acceptJsonBodies, baseFastifyOptions } from './fastify-base.js';
import { isLoopbackHost } from './guards.js';
import { registerClawArenaAgentRoutes } from './routes/clawarena-agents.js';
import { registerClawArenaEconomyRoutes } from './routes/clawarena-economy.js';
import { attachWatcherSocket } from './watcher-socket.js';

// --- a minimal DER encoder ---------------------------------------------------------------------------------

function derLength(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const seq = (...items: Buffer[]) => tlv(0x30, ...items);
const set = (...items: Buffer[]) => tlv(0x31, ...items);
const octets = (b: Buffer) => tlv(0x04, b);
const bitString = (b: Buffer) => tlv(0x03, Buffer.from([0]), b);
const utf8 = (s: string) => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer) => tlv(0xa0 | n, inner);
const bool = (v: boolean) => tlv(0x01, Buffer.from([v ? 0xff : 0]));

function integer(bytes: Buffer): Buffer {
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && ((b[1] as number) & 0x80) === 0) b = b.subarray(1);
  if (((b[0] as number) & 0x80) !== 0) b = Buffer.concat([Buffer.from([0]), b]);
  return tlv(0x02, b);
}

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const out: number[] = [40 * (parts[0] as number) + (parts[1] as number)];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
}

/** UTCTime before 2050, GeneralizedTime after (RFC 5280 §4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return date.getUTCFullYear() < 2050 ? tlv(0x17, Buffer.from(`${iso.slice(2)}Z`)) : tlv(0x18, Buffer.from(`${iso}Z`));
}

function ipBytes(ip: string): Buffer {
  if (ip.includes(':')) {
    const [head = '', tail = ''] = ip.split('::');
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
    return Buffer.from(groups.flatMap((g) => [(parseInt(g, 16) >> 8) & 0xff, parseInt(g, 16) & 0xff]));
  }
  return Buffer.from(ip.split('.').map(Number));
}

const OID = {
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  basicConstraints: '2.5.29.19',
  keyUsage: '2.5.29.15',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  subjectAltName: '2.5.29.17',
  subjectKeyId: '2.5.29.14',
  authorityKeyId: '2.5.29.35',
};

export interface CertificateSpec {
  commonName: string;
  dnsNames: string[];
  ipAddresses: string[];
  notBefore: Date;
  notAfter: Date;
}

/** A self-signed leaf certificate (CA:FALSE, serverAuth) with a fresh P-256 key; PEM text of both. */
export function createSelfSignedCertificate(spec: CertificateSpec): { certPem: string; keyPem: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  // SubjectKeyIdentifier method 1: SHA-1 of the subjectPublicKey bits (the last 65 bytes of a P-256 SPKI).
  const keyId = createHash('sha1')
    .update(spki.subarray(spki.length - 65))
    .digest();
  const name = seq(set(seq(oid(OID.organization), utf8('Local Arena'))), set(seq(oid(OID.commonName), utf8(spec.commonName))));
  const serial = randomBytes(16);
  serial[0] = (serial[0] as number) & 0x7f;
  const altNames = seq(
    ...spec.dnsNames.map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
    ...spec.ipAddresses.map((ip) => tlv(0x87, ipBytes(ip))),
  );
  const extension = (id: string, critical: boolean, value: Buffer) => seq(oid(id), ...(critical ? [bool(true)] : []), octets(value));
  const extensions = seq(
    extension(OID.basicConstraints, true, seq()),
    // digitalSignature only (bit 0): an ECDHE server key.
    extension(OID.keyUsage, true, tlv(0x03, Buffer.from([7, 0x80]))),
    extension(OID.extKeyUsage, false, seq(oid(OID.serverAuth))),
    extension(OID.subjectAltName, false, altNames),
    extension(OID.subjectKeyId, false, octets(keyId)),
    extension(OID.authorityKeyId, false, seq(tlv(0x80, keyId))),
  );
  const algorithm = seq(oid(OID.ecdsaWithSha256));
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    name,
    seq(time(spec.notBefore), time(spec.notAfter)),
    name,
    spki,
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const der = seq(tbs, algorithm, bitString(signature));
  const body = der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
  };
}

// --- the per-data-dir certificate ---------------------------------------------------------------------------

export interface LoopbackCertificate {
  certPath: string;
  keyPath: string;
  cert: string;
  key: string;
  generated: boolean;
}

const RENEW_BEFORE_MS = 30 * 24 * 3600 * 1000;

function usable(certPem: string, keyPem: string, now: number): boolean {
  try {
    const cert = new X509Certificate(certPem);
    return (
      cert.checkPrivateKey(createPrivateKey(keyPem)) &&
      Date.parse(cert.validTo) - now > RENEW_BEFORE_MS &&
      cert.checkIP('127.0.0.1') !== undefined &&
      cert.checkHost('localhost') !== undefined
    );
  } catch {
    return false;
  }
}

/** Loads <dataDir>/tls/loopback-{cert,key}.pem, generating them on first use or when near expiry. */
export function loadOrCreateLoopbackCertificate(dataDir: string, now = Date.now()): LoopbackCertificate {
  const dir = path.join(dataDir, 'tls');
  const certPath = path.join(dir, 'loopback-cert.pem');
  const keyPath = path.join(dir, 'loopback-key.pem');
  if (fs.existsSync(certPath) && fs.existsSync(keyPath)) {
    const cert = fs.readFileSync(certPath, 'utf8');
    const key = fs.readFileSync(keyPath, 'utf8');
    if (usable(cert, key, now)) return { certPath, keyPath, cert, key, generated: false };
  }
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const { certPem, keyPem } = createSelfSignedCertificate({
    commonName: 'Local Arena loopback',
    dnsNames: ['localhost'],
    ipAddresses: ['127.0.0.1', '::1'],
    notBefore: new Date(now - 3600_000),
    notAfter: new Date(now + 825 * 24 * 3600_000),
  });
  fs.writeFileSync(keyPath, keyPem, { mode: 0o600 });
  fs.writeFileSync(certPath, certPem, { mode: 0o644 });
  return { certPath, keyPath, cert: certPem, key: keyPem, generated: true };
}

/** A user-supplied certificate and key (PEM files). */
export function loadCertificateFiles(certPath: string, keyPath: string): LoopbackCertificate {
  return {
    certPath: path.resolve(certPath),
    keyPath: path.resolve(keyPath),
    cert: fs.readFileSync(certPath, 'utf8'),
    key: fs.readFileSync(keyPath, 'utf8'),
    generated: false,
  };
}

// --- the HTTPS listener -------------------------------------------------------------------------------------

export interface TlsListenerOptions {
  host: string;
  port: number;
  certificate: LoopbackCertificate;
  clawarena: ClawArenaService;
  logLevel?: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'silent';
}

/** A second listener, HTTPS on loopback, carrying only the ClawArena agent and economy routes. */
export async function startTlsAgentListener(options: TlsListenerOptions): Promise<{ app: FastifyInstance; port: number }> {
  const app = Fastify({ ...baseFastifyOptions(options.logLevel), https: { cert: options.certificate.cert, key: options.certificate.key } });
  acceptJsonBodies(app);
  installErrorHandler(app);
  app.addHook('onRequest', async (request, reply) => {
    if (!isLoopbackHost(request.headers.host)) {
      return reply
        .code(403)
        .send({ status: 'error', code: EngineErrorCode.ForbiddenHost, message: 'Host header must name a loopback address' });
    }
  });
  app.setNotFoundHandler((_req, reply) =>
    reply.code(404).send({ status: 'error', code: 'not_found', message: 'Only the ClawArena agent API is served over TLS' }),
  );
  registerClawArenaAgentRoutes(app, options.clawarena);
  registerClawArenaEconomyRoutes(app, options.clawarena);
  // The public watcher requires https and sends `Origin: https://<host>` without the port: loopback origins pass.
  attachWatcherSocket(app, options.clawarena, { checkOrigin: false });
  await app.listen({ host: options.host, port: options.port });
  const address = app.server.address();
  return { app, port: typeof address === 'object' && address ? address.port : options.port };
}
