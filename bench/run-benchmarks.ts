import { runSignedRetryBenchmark } from './signed-retry.bench';
import { runStampBenchmark } from './stamp-verify.bench';

/**
 * `npm run bench`: every benchmark, each reported as ratios against a baseline measured in the
 * same run (absolute numbers drift between machines and runs; ratios are what we track).
 */
async function main(): Promise<void> {
  const only = process.argv[2];
  const results: Record<string, unknown> = {};
  if (!only || only === 'stamp') {
    results.stampVerify = runStampBenchmark();
    console.log('stamp check vs raw native P-256 verify:', results.stampVerify);
  }
  if (!only || only === 'signed-retry') {
    results.signedRetry = await runSignedRetryBenchmark();
    console.log('signed-retry round trip through the gateway vs raw native verify:', results.signedRetry);
  }
  if (!only || only === 'encoding') {
    const { runRecordEncodingBenchmark } = await import('./record-encoding.bench');
    results.recordEncoding = runRecordEncodingBenchmark();
    console.log(
      'a quote between service and gateway, as google.protobuf.Struct (before) vs typed (now):',
      results.recordEncoding,
    );
  }
  if (!only || only === 'store') {
    const { runStoreWriteBenchmark } = await import('./store-write.bench');
    results.storeWrite = await runStoreWriteBenchmark();
    console.log('a store write, the SQLite engine on a file vs in memory:', results.storeWrite);
  }
  if (!only || only === 'payments') {
    const { runPaymentsBenchmark } = await import('./payments-throughput.bench');
    results.payments = await runPaymentsBenchmark();
    console.log('quote create+execute (platform and agent) vs lookup vs bare Express JSON:', results.payments);
  }
  if (only === 'lookup') {
    const { runGatewayLookupBenchmark } = await import('./gateway-lookup.bench');
    results.gatewayLookup = await runGatewayLookupBenchmark();
    console.log(
      'one lookup through the gateway (REST, one gRPC read) vs bare Express JSON, throughput and CPU per request:',
      JSON.stringify(results.gatewayLookup, null, 1),
    );
  }
  if (only === 'writes') {
    const { runPaymentWritesBenchmark } = await import('./payment-writes.bench');
    results.paymentWrites = await runPaymentWritesBenchmark();
    console.log(
      'store operations per platform create + execute (settled), by collection, and CPU per create + execute:',
      JSON.stringify(results.paymentWrites, null, 1),
    );
  }
  if (only === 'open-loop') {
    const { runOpenLoopBenchmark } = await import('./payments-throughput.bench');
    results.openLoop = await runOpenLoopBenchmark();
    console.log(
      'quote create + execute at fixed arrival rates (open loop):',
      JSON.stringify(results.openLoop, null, 1),
    );
  }
  if (!only || only === 'bulk') {
    const { runBulkImportBenchmark } = await import('./bulk-import.bench');
    results.bulkImport = await runBulkImportBenchmark();
    console.log('customers per second, CSV import vs single POST /customers:', results.bulkImport);
  }
  if (!only || only === 'kafka') {
    const { runKafkaConsumeBenchmark } = await import('./kafka-consume.bench');
    results.kafkaConsume = await runKafkaConsumeBenchmark();
    console.log(
      'a consumer group working through a backlog, our bus (commit per batch) vs commit per message:',
      results.kafkaConsume,
    );
  }
  if (only === 'startup') {
    const { runStartupBenchmark } = await import('./startup.bench');
    results.startup = await runStartupBenchmark();
    console.log(
      'node dist/main.js all on an empty data directory, spawn to /readyz 200:',
      JSON.stringify(results.startup, null, 1),
    );
  }
  if (only === 'uma') {
    const { runUmaBenchmark } = await import('./uma.bench');
    results.uma = await runUmaBenchmark();
    console.log(
      'UMA payments (lookup + quote + execute) between two instances '
        + 'on this machine vs between two customers inside one server:',
      JSON.stringify(results.uma, null, 1),
    );
  }
  if (only === 'scale') {
    const { runScaleBenchmark } = await import('./scale.bench');
    results.scale = await runScaleBenchmark();
    console.log(
      'the embedded store at 10k and 100k payments of history (restart, memory, a customer page, disk):',
      results.scale,
    );
  }
  console.log(JSON.stringify(results));
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
