import { request } from 'node:http';

export interface HttpReply {
  status: number;
  /** The content-type header. */
  type: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One plain HTTP request to 127.0.0.1:`port`, its answer read whole as UTF-8. */
export function httpGet(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<HttpReply> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: String(res.headers['content-type']),
          headers: res.headers,
          body,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}
