import { silentLogger } from '../log';
import { createPeriodicTask } from './periodic-task';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('runs repeatedly without overlap and keeps going after a failure', async () => {
  let concurrent = 0;
  let maxConcurrent = 0;
  let runs = 0;
  const task = createPeriodicTask({
    name: 'test',
    intervalMs: 5,
    logger: silentLogger,
    run: async () => {
      concurrent++;
      maxConcurrent = Math.max(maxConcurrent, concurrent);
      runs++;
      await sleep(10);
      concurrent--;
      if (runs === 2) throw new Error('transient');
    },
  });
  task.start();
  void task.runNow();
  await sleep(120);
  await task.stop();
  const after = runs;
  await sleep(40);
  expect(runs).toBe(after);
  expect(runs).toBeGreaterThan(3);
  expect(maxConcurrent).toBe(1);
});

test('stop waits for the run in progress', async () => {
  let finished = false;
  const task = createPeriodicTask({
    name: 'test',
    intervalMs: 1,
    logger: silentLogger,
    run: async () => {
      await sleep(30);
      finished = true;
    },
  });
  task.start();
  await sleep(5);
  await task.stop();
  expect(finished).toBe(true);
});
