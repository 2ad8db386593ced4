'use strict';
// node-redlock (redlock 5 + ioredis 5) as one system of the redlock side-by-side bench.
//
// The Java bench starts `node driver.js` and talks to it in JSON lines: one request per stdin line
// ({"seq": 1, "op": "...", ...}), one reply per stdout line ({"seq": 1, "ok": true, "result": {...}} or
// {"seq": 1, "ok": false, "error": "..."}), one request at a time. The timed loops run here, in Node, timed with
// process.hrtime.bigint(), so no pipe round trip is ever inside a measurement; the replies carry raw samples in
// nanoseconds and the Java side computes every percentile with the same code for every system.
// Diagnostics go to stderr. Closing stdin closes every connection and ends the process.

const fs = require('fs');
const path = require('path');
const readline = require('readline');
const Redis = require('ioredis');
const Redlock = require('redlock').default;

const instances = new Map();   // name -> { redlock, clients }
const held = new Map();        // handle -> Lock (the protocol's own acquire/release)
let nextHandle = 1;

const now = () => process.hrtime.bigint();
const nanos = (from, to) => Number(to - from);
const yieldToLoop = () => new Promise((resolve) => setImmediate(resolve));

function versionOf(pkg) {
  const file = path.join(__dirname, 'node_modules', pkg, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

function instance(name) {
  const i = instances.get(name);
  if (!i) throw new Error(`no instance '${name}' (open it first)`);
  return i;
}

// One Redlock over one ioredis client per node. ioredis' commandTimeout is the per-node timeout, like the Java
// systems' node timeout; retryCount applies to acquire (0 = one round, like tryAcquire) and to release.
async function open(req) {
  if (instances.has(req.instance)) throw new Error(`instance '${req.instance}' is already open`);
  const clients = req.nodes.map((uri) => new Redis(uri, {
    lazyConnect: true,
    commandTimeout: req.nodeTimeoutMs,
    enableAutoPipelining: !!req.autoPipelining,
  }));
  try {
    await Promise.all(clients.map((c) => c.connect()));
  } catch (e) {
    clients.forEach((c) => c.disconnect());
    throw e;
  }
  const redlock = new Redlock(clients, {
    driftFactor: 0.01,
    retryCount: req.retryCount,
    retryDelay: req.retryDelayMs,
    retryJitter: req.retryJitterMs,
  });
  instances.set(req.instance, { redlock, clients });
  return {};
}

function close(req) {
  const i = instances.get(req.instance);
  if (i) {
    instances.delete(req.instance);
    i.clients.forEach((c) => c.disconnect());
  }
  return {};
}

async function acquire(req) {
  try {
    const lock = await instance(req.instance).redlock.acquire([req.resource], req.ttlMs);
    const handle = nextHandle++;
    held.set(handle, lock);
    return { handle };
  } catch (e) {
    return { handle: null, error: String(e && e.message) };
  }
}

async function release(req) {
  const lock = held.get(req.handle);
  if (!lock) throw new Error(`no held lock ${req.handle}`);
  held.delete(req.handle);
  await lock.release();
  return {};
}

// One acquire+release of a free resource, each half timed; null when either failed.
async function timedPair(redlock, resource, ttlMs) {
  const t0 = now();
  let lock;
  try {
    lock = await redlock.acquire([resource], ttlMs);
  } catch (e) {
    return null;
  }
  const t1 = now();
  try {
    await lock.release();
  } catch (e) {
    return null;
  }
  return { acquireNs: nanos(t0, t1), releaseNs: nanos(t1, now()) };
}

// W1/W3/W4: n acquire+release pairs of one free resource, back to back.
async function uncontended(req) {
  const { redlock } = instance(req.instance);
  const acquireNs = [];
  const releaseNs = [];
  let failures = 0;
  for (let i = 0; i < req.n; i++) {
    const pair = await timedPair(redlock, req.resource, req.ttlMs);
    if (!pair) {
      failures++;
      continue;
    }
    acquireNs.push(pair.acquireNs);
    releaseNs.push(pair.releaseNs);
  }
  return { acquireNs, releaseNs, failures };
}

// W2: one contender per instance, all on one resource, for req.ms; each waits in the library's own acquire
// (its retries). The critical section yields to the event loop once, so another contender's grant could land
// inside it and be counted as an overlap.
async function contended(req) {
  const all = req.instances.map(instance);
  const perClient = all.map(() => 0);
  let inside = 0;
  let overlaps = 0;
  let errors = 0;
  let stop = false;
  const t0 = now();
  let elapsed = 0;
  const timer = setTimeout(() => { stop = true; elapsed = nanos(t0, now()); }, req.ms);
  await Promise.all(all.map(async ({ redlock }, c) => {
    while (!stop) {
      let lock;
      try {
        lock = await redlock.acquire([req.resource], req.ttlMs);
      } catch (e) {
        errors++;
        continue;
      }
      if (++inside !== 1) overlaps++;
      await yieldToLoop();
      inside--;
      try {
        await lock.release();
      } catch (e) {
        errors++;
      }
      if (!stop) perClient[c]++;
    }
  }));
  clearTimeout(timer);
  return { perClient, overlaps, errors, elapsedNs: elapsed };
}

// W6: `callers` promise chains on one instance, each on its own resource, acquire+release for req.ms.
async function concurrent(req) {
  const { redlock } = instance(req.instance);
  const pairNs = [];
  const acquireNs = [];
  let failures = 0;
  let stop = false;
  const t0 = now();
  let elapsed = 0;
  const timer = setTimeout(() => { stop = true; elapsed = nanos(t0, now()); }, req.ms);
  const callers = [];
  for (let c = 0; c < req.callers; c++) {
    const resource = req.prefix + c;
    callers.push((async () => {
      while (!stop) {
        const pair = await timedPair(redlock, resource, req.ttlMs);
        if (!pair) {
          failures++;
        } else if (!stop) {
          pairNs.push(pair.acquireNs + pair.releaseNs);
          acquireNs.push(pair.acquireNs);
        }
      }
    })());
  }
  await Promise.all(callers);
  clearTimeout(timer);
  return { pairNs, acquireNs, failures, elapsedNs: elapsed };
}

// The Node floor: SET NX PX round trips from one ioredis client to one node.
async function floor(req) {
  const c = new Redis(req.node, { lazyConnect: true });
  await c.connect();
  try {
    const setNs = [];
    for (let i = 0; i < req.warmup + req.n; i++) {
      const t0 = now();
      await c.set(`nfloor:${i}`, 'v', 'PX', 10000, 'NX');
      if (i >= req.warmup) setNs.push(nanos(t0, now()));
    }
    return { setNs };
  } finally {
    c.disconnect();
  }
}

const ops = {
  hello: () => ({ node: process.version, redlock: versionOf('redlock'), ioredis: versionOf('ioredis') }),
  open, close, acquire, release, uncontended, contended, concurrent, floor,
};

async function handle(line) {
  let req;
  try {
    req = JSON.parse(line);
  } catch (e) {
    return { seq: null, ok: false, error: `not JSON: ${line}` };
  }
  const op = ops[req.op];
  if (!op) return { seq: req.seq, ok: false, error: `unknown op '${req.op}'` };
  try {
    return { seq: req.seq, ok: true, result: await op(req) };
  } catch (e) {
    return { seq: req.seq, ok: false, error: String(e && e.stack || e) };
  }
}

let queue = Promise.resolve();
const input = readline.createInterface({ input: process.stdin });
input.on('line', (line) => {
  if (!line.trim()) return;
  queue = queue.then(() => handle(line)).then((reply) => process.stdout.write(JSON.stringify(reply) + '\n'));
});
input.on('close', () => {
  queue.then(() => {
    for (const name of [...instances.keys()]) close({ instance: name });
    process.exit(0);
  });
});
