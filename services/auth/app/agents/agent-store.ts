import type { AgentPolicy } from '../../domain/agents/agent-policy';

export interface AgentRecord {
  id: string;
  platformId: string;
  customerId: string;
  name: string;
  isPaused: boolean;
  isConnected: boolean;
  policy: AgentPolicy;
  /** Digest of the access token its device code gave; absent until redeemed. */
  tokenDigest?: string;
  createdAt: string;
  updatedAt: string;
}

export interface DeviceCodeRecord {
  digest: string;
  agentId: string;
  platformId: string;
  expiresAt: string;
  redeemedAt?: string;
  /** A newer code for the same agent replaced this one before it was redeemed. */
  supersededAt?: string;
  createdAt: string;
}

export interface AgentQuery {
  customerId?: string;
  isPaused?: boolean;
  isConnected?: boolean;
  createdAfter?: string;
  createdBefore?: string;
  updatedAfter?: string;
  updatedBefore?: string;
  limit: number;
  after?: { createdAt: string; id: string };
}

/** Storage port of agents and their device codes. Deleted agents are gone: nothing finds them. */
export interface AgentStore {
  insert(agent: AgentRecord): Promise<void>;
  get(platformId: string, id: string): Promise<AgentRecord | null>;
  byTokenDigest(digest: string): Promise<AgentRecord | null>;
  list(platformId: string, query: AgentQuery): Promise<{ agents: AgentRecord[]; hasMore: boolean; totalCount: number }>;
  /** Applies `set` and answers the agent after it; null when absent. */
  update(platformId: string, id: string, set: Partial<AgentRecord>): Promise<AgentRecord | null>;
  /** Connects the agent with this token unless it was deleted meanwhile. */
  connect(id: string, tokenDigest: string, now: string): Promise<AgentRecord | null>;
  delete(platformId: string, id: string): Promise<boolean>;

  insertDeviceCode(code: DeviceCodeRecord): Promise<void>;
  deviceCode(digest: string): Promise<DeviceCodeRecord | null>;
  /** Marks every unredeemed, unsuperseded code of the agent but `keep` as superseded. */
  supersedeDeviceCodes(agentId: string, keep: string, now: string): Promise<void>;
  /** Redeemed now if still unredeemed, not superseded and unexpired: exactly one of concurrent claims wins. */
  claimDeviceCode(digest: string, now: string): Promise<boolean>;
  /** Device codes issued on the platform since `since`. */
  countDeviceCodesSince(platformId: string, since: string): Promise<number>;
  /** Forgets a device code (one issued over the quota). */
  deleteDeviceCode(digest: string): Promise<void>;
  ensureIndexes(): Promise<void>;
}
