import { DeadLetterServiceService } from '../../gen/events/v1/dead_letters';
import { AppError } from '../errors';
import { createServiceClient } from '../grpc/grpc-client';

/**
 * The operators' command for a service's dead letters (docs/reliability.md):
 *
 *   node dist/lib/bus/dead-letters-command.js <service address> list [DEAD|REPLAYED] [--group <group>]
 *   node dist/lib/bus/dead-letters-command.js <service address> show <id>
 *   node dist/lib/bus/dead-letters-command.js <service address> replay <id>
 *
 * It calls the service's DeadLetterService with INTERNAL_TOKEN (and GRPC_TLS_* when the services
 * use mutual TLS) and prints JSON. Exit 0 on success, 1 when the call failed or a replay failed
 * again (the letter printed is still DEAD, with the new error), 2 on a usage error.
 */
const USAGE =
  'usage: dead-letters-command <service address> list [DEAD|REPLAYED] [--group <group>] | show <id> | replay <id>';

export async function runDeadLettersCommand(
  argv: string[],
  env: NodeJS.ProcessEnv,
  print: (line: string) => void,
): Promise<number> {
  const [address, action, ...rest] = argv;
  const token = env.INTERNAL_TOKEN?.trim();
  const usage = (why: string) => {
    print(`${why}\n${USAGE}`);
    return 2;
  };
  if (!address || !action) return usage('a service address and an action are needed');
  if (!token) return usage('INTERNAL_TOKEN must be set (the token the services share)');
  const client = createServiceClient(DeadLetterServiceService, address, { internalToken: token });
  try {
    if (action === 'list') {
      let status = '';
      let group = '';
      for (let i = 0; i < rest.length; i++) {
        if (rest[i] === '--group') group = rest[++i] ?? '';
        else status = rest[i];
      }
      const { deadLetters } = await client.listDeadLetters({ status, group, limit: 0 });
      print(JSON.stringify(deadLetters.map(({ eventJson: _event, ...summary }) => summary), null, 2));
      return 0;
    }
    if ((action === 'show' || action === 'replay') && rest[0]) {
      const answer = action === 'show'
        ? await client.getDeadLetter({ id: rest[0] })
        : await client.replayDeadLetter({ id: rest[0] });
      const letter = answer.deadLetter!;
      print(JSON.stringify({ ...letter, eventJson: undefined, event: JSON.parse(letter.eventJson) }, null, 2));
      return action === 'replay' && letter.status !== 'REPLAYED' ? 1 : 0; // a replay that failed again
    }
    return usage(`unknown action: ${[action, ...rest].join(' ')}`);
  } catch (err) {
    print(err instanceof AppError ? `${err.code}: ${err.message}` : String(err));
    return 1;
  } finally {
    client.close();
  }
}

if (require.main === module) {
  const print = (line: string) => process.stdout.write(`${line}\n`);
  void runDeadLettersCommand(process.argv.slice(2), process.env, print).then((code) => process.exit(code));
}
