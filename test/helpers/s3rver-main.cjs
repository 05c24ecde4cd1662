// Runs s3rver (npm) in its own process, as the S3 tests need it: it must start with
// node --openssl-legacy-provider, and a fault test kills it. Prints {"port":N} once listening.
const S3rver = require('s3rver');

const [directory, buckets = ''] = process.argv.slice(2);
const server = new S3rver({
  address: '127.0.0.1', port: 0, directory, silent: true,
  configureBuckets: buckets.split(',').filter(Boolean).map((name) => ({ name })),
});
server.run().then(({ port }) => { process.stdout.write(`${JSON.stringify({ port })}\n`); });
process.on('SIGTERM', () => { server.close().finally(() => process.exit(0)); });
