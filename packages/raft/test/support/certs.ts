/**
 * Test certificates made with the `openssl` command at test time: a CA and
 * leaf certificates (EC P-256) with chosen SANs, optionally already expired.
 * Used by the raft and broker TLS tests; never anywhere else.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CertFiles {
  readonly cert: string;
  readonly key: string;
}

export interface IssueOptions {
  readonly dns?: readonly string[];
  readonly ip?: readonly string[];
  /** URI SANs, e.g. `fermata-peer:n1` for a peer certificate. */
  readonly uri?: readonly string[];
  /** Valid from 2020-01-01 to 2020-01-02: long expired. */
  readonly expired?: boolean;
  /** Days of validity (default 2). */
  readonly days?: number;
}

function openssl(args: readonly string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
}

/** A throwaway certificate authority under `dir`. */
export class TestCa {
  readonly cert: string;
  readonly key: string;
  private serial = 1;

  constructor(
    readonly dir: string,
    readonly name = 'fermata-test-ca',
  ) {
    mkdirSync(dir, { recursive: true });
    this.cert = join(dir, `${name}.pem`);
    this.key = join(dir, `${name}.key`);
    newKey(this.key, dir);
    openssl(
      ['req', '-x509', '-new', '-key', this.key, '-subj', `/CN=${name}`, '-days', '3', '-out', this.cert],
      dir,
    );
  }

  /** A leaf certificate signed by this CA (usable as server and client certificate). */
  issue(name: string, options: IssueOptions = {}): CertFiles {
    const dir = this.dir;
    const key = join(dir, `${name}.key`);
    const cert = join(dir, `${name}.pem`);
    const csr = join(dir, `${name}.csr`);
    const ext = join(dir, `${name}.ext`);
    newKey(key, dir);
    openssl(['req', '-new', '-key', key, '-subj', `/CN=${name}`, '-out', csr], dir);
    const sans = [
      ...(options.dns ?? []).map((d) => `DNS:${d}`),
      ...(options.ip ?? []).map((i) => `IP:${i}`),
      ...(options.uri ?? []).map((u) => `URI:${u}`),
    ];
    writeFileSync(
      ext,
      [
        'basicConstraints=CA:FALSE',
        'keyUsage=digitalSignature,keyEncipherment',
        'extendedKeyUsage=serverAuth,clientAuth',
        ...(sans.length > 0 ? [`subjectAltName=${sans.join(',')}`] : []),
      ].join('\n'),
    );
    if (options.expired) {
      // `openssl ca` is the one 3.0 command that takes explicit start and end dates.
      const db = join(dir, `${name}.db`);
      mkdirSync(db, { recursive: true });
      writeFileSync(join(db, 'index.txt'), '');
      writeFileSync(join(db, 'serial'), `${(1000 + this.serial++).toString(16).padStart(4, '0')}\n`);
      const conf = join(dir, `${name}.cnf`);
      writeFileSync(
        conf,
        [
          '[ca]',
          'default_ca=test',
          '[test]',
          `dir=${db}`,
          'database=$dir/index.txt',
          'serial=$dir/serial',
          'new_certs_dir=$dir',
          'default_md=sha256',
          'policy=any',
          'copy_extensions=none',
          '[any]',
          'commonName=supplied',
        ].join('\n'),
      );
      openssl(
        [
          'ca',
          '-batch',
          '-config',
          conf,
          '-cert',
          this.cert,
          '-keyfile',
          this.key,
          '-in',
          csr,
          '-out',
          cert,
          '-startdate',
          '20200101000000Z',
          '-enddate',
          '20200102000000Z',
          '-extfile',
          ext,
          '-notext',
        ],
        dir,
      );
    } else {
      openssl(
        [
          'x509',
          '-req',
          '-in',
          csr,
          '-CA',
          this.cert,
          '-CAkey',
          this.key,
          '-set_serial',
          String(this.serial++),
          '-days',
          String(options.days ?? 2),
          '-extfile',
          ext,
          '-out',
          cert,
        ],
        dir,
      );
    }
    return { cert, key };
  }
}

function newKey(path: string, cwd: string): void {
  openssl(['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:P-256', '-out', path], cwd);
}
