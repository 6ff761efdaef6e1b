import { timingSafeEqual } from 'node:crypto';
import { AppError } from '../../../../lib/errors';
import { newId } from '../../../../lib/ids';
import { changePolicy, parsePolicy, type Permission, type PolicyInput } from '../../domain/agents/agent-policy';
import { createWithinQuota } from '../../../../lib/quota';
import {
  accessTokenDigest,
  deviceCodeDigest,
  newAccessToken,
  newDeviceCode,
  normalizeDeviceCode,
} from '../../domain/agents/agent-credentials';
import type { AgentQuery, AgentRecord, AgentStore } from './agent-store';

export interface AgentsDeps {
  store: AgentStore;
  clock: () => Date;
  deviceCodeTtlMs: number;
  /** Whether the customer exists on the platform (the accounts service). */
  customerExists: (platformId: string, customerId: string) => Promise<boolean>;
  quotas?: { agentsPerPlatform: number; deviceCodesPerPlatformPerHour: number };
}

const HOUR_MS = 3_600_000;

export interface IssuedDeviceCode {
  code: string;
  agentId: string;
  expiresAt: string;
  redeemed: boolean;
}

const agentNotFound = (id: string) => new AppError('REFERENCE_NOT_FOUND', `Agent ${id} not found`);
const codeNotFound = () => new AppError('REFERENCE_NOT_FOUND', 'Device code not found');
const invalid = (field: string, message: string) => AppError.invalidInput(message, [{ field, message }]);
/** A real code that cannot be redeemed any more: 400, with the reason. */
const unusable = (reason: string, message: string) => new AppError('INVALID_INPUT', message, { reason });

/** Agents of a platform, their device codes, and the access tokens those give the agent software. */
export function createAgents(deps: AgentsDeps) {
  const now = () => deps.clock().toISOString();

  async function issue(agent: AgentRecord): Promise<IssuedDeviceCode> {
    const code = newDeviceCode();
    const at = deps.clock();
    const expiresAt = new Date(at.getTime() + deps.deviceCodeTtlMs).toISOString();
    const digest = deviceCodeDigest(code);
    const quota = {
      what: 'device codes per platform per hour',
      limit: deps.quotas?.deviceCodesPerPlatformPerHour ?? Number.POSITIVE_INFINITY,
      retryAfterSeconds: 3600,
    };
    await createWithinQuota(quota, {
      count: () => deps.store.countDeviceCodesSince(agent.platformId, new Date(at.getTime() - HOUR_MS).toISOString()),
      create: () =>
        deps.store.insertDeviceCode({
          digest,
          agentId: agent.id,
          platformId: agent.platformId,
          expiresAt,
          createdAt: at.toISOString(),
        }),
      undo: () => deps.store.deleteDeviceCode(digest),
    });
    await deps.store.supersedeDeviceCodes(agent.id, digest, at.toISOString());
    return { code, agentId: agent.id, expiresAt, redeemed: false };
  }

  async function get(platformId: string, id: string): Promise<AgentRecord> {
    const agent = await deps.store.get(platformId, id);
    if (!agent) throw agentNotFound(id);
    return agent;
  }

  async function create(platformId: string, input: { name?: string; customerId?: string; policy?: PolicyInput }) {
    const errors = [];
    if (!input.name?.trim()) errors.push({ field: 'name', message: 'is required' });
    if (!input.customerId) errors.push({ field: 'customerId', message: 'is required' });
    if (errors.length) throw AppError.invalidInput('Invalid agent', errors);
    const policy = parsePolicy(input.policy);
    if (!(await deps.customerExists(platformId, input.customerId!))) {
      throw invalid('customerId', `Customer ${input.customerId} not found`);
    }
    const at = now();
    const agent: AgentRecord = {
      id: newId('Agent'),
      platformId,
      customerId: input.customerId!,
      name: input.name!.trim(),
      isPaused: false,
      isConnected: false,
      policy,
      createdAt: at,
      updatedAt: at,
    };
    // 429 (the contract's answer for POST /agents): a deletion makes room.
    await createWithinQuota({
      what: 'agents per platform',
      limit: deps.quotas?.agentsPerPlatform ?? Number.POSITIVE_INFINITY,
      retryAfterSeconds: 60,
    }, {
      count: async () => (await deps.store.list(platformId, { limit: 1 })).totalCount,
      create: () => deps.store.insert(agent),
      undo: async () => {
        await deps.store.delete(platformId, agent.id);
      },
    });
    try {
      return { agent, deviceCode: await issue(agent) };
    } catch (err) {
      // No agent without its first device code: nothing half-made survives.
      await deps.store.delete(platformId, agent.id);
      throw err;
    }
  }

  async function update(platformId: string, id: string, change: { name?: string; isPaused?: boolean }) {
    if (change.name === undefined && change.isPaused === undefined) {
      throw AppError.invalidInput('Give name or isPaused', [{
        field: 'name',
        message: 'name or isPaused is required',
      }]);
    }
    if (change.name !== undefined && !change.name.trim()) throw invalid('name', 'must not be empty');
    const set: Partial<AgentRecord> = {
      ...(change.name !== undefined ? { name: change.name.trim() } : {}),
      ...(change.isPaused !== undefined ? { isPaused: change.isPaused } : {}),
    };
    return (await deps.store.update(platformId, id, { ...set, updatedAt: now() })) ?? Promise.reject(agentNotFound(id));
  }

  async function updatePolicy(platformId: string, id: string, input: PolicyInput) {
    const agent = await get(platformId, id);
    const policy = changePolicy(agent.policy, input);
    return (await deps.store.update(platformId, id, { policy, updatedAt: now() })) ?? Promise.reject(agentNotFound(id));
  }

  async function remove(platformId: string, id: string) {
    if (!(await deps.store.delete(platformId, id))) throw agentNotFound(id);
  }

  async function issueDeviceCode(platformId: string, id: string) {
    const agent = await get(platformId, id);
    if (agent.isConnected) {
      throw new AppError('CONFLICT', `Agent ${id} is already connected; delete it and create another to reinstall`);
    }
    return issue(agent);
  }

  async function deviceCodeStatus(platformId: string, code: string) {
    const record = await deps.store.deviceCode(deviceCodeDigest(code));
    if (!record || record.platformId !== platformId) throw codeNotFound();
    return { code: `GRID-AGENT-${normalizeDeviceCode(code)}`, redeemed: !!record.redeemedAt };
  }

  /** The code is the proof: no platform credentials. Answers the access token this once. */
  async function redeem(code: string) {
    const digest = deviceCodeDigest(code);
    const record = await deps.store.deviceCode(digest);
    if (!record) throw codeNotFound();
    const at = now();
    if (record.redeemedAt) throw unusable('DEVICE_CODE_REDEEMED', 'This device code was already redeemed');
    if (record.supersededAt) throw unusable('DEVICE_CODE_REPLACED', 'This device code was replaced by a newer one');
    if (record.expiresAt <= at) {
      throw unusable('DEVICE_CODE_EXPIRED', `This device code expired at ${record.expiresAt}`);
    }
    if (!(await deps.store.claimDeviceCode(digest, at))) {
      throw unusable('DEVICE_CODE_REDEEMED', 'This device code was already redeemed');
    }
    const accessToken = newAccessToken();
    const agent = await deps.store.connect(record.agentId, accessTokenDigest(accessToken), at);
    if (!agent) throw codeNotFound();
    return { agent, accessToken };
  }

  /** Read afresh on every call: a paused or deleted agent is refused on its very next request. */
  async function authenticate(accessToken: string, options: { permission?: Permission; allowPaused?: boolean }) {
    const digest = accessTokenDigest(accessToken);
    const agent = accessToken ? await deps.store.byTokenDigest(digest) : null;
    if (!agent?.tokenDigest || !timingSafeEqual(Buffer.from(agent.tokenDigest), Buffer.from(digest))) {
      throw new AppError('UNAUTHORIZED', 'The agent access token is not valid');
    }
    if (agent.isPaused && !options.allowPaused) {
      throw new AppError('UNAUTHORIZED', 'The agent is paused', { agentPaused: true });
    }
    if (options.permission && !agent.policy.permissions.includes(options.permission)) {
      throw new AppError('FORBIDDEN', `The agent's policy does not grant ${options.permission}`, {
        permission: options.permission,
      });
    }
    return agent;
  }

  const list = (platformId: string, query: AgentQuery) => deps.store.list(platformId, query);

  return { create, get, list, update, updatePolicy, remove, issueDeviceCode, deviceCodeStatus, redeem, authenticate };
}

export type Agents = ReturnType<typeof createAgents>;
