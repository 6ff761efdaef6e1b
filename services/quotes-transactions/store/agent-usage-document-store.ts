import type { DocumentStore } from '../../../lib/store/document-store';
import type { AgentUsageStore } from '../app/agents/agent-usage';
import { createVolumeDocumentStore, VOLUMES_COLLECTION } from './volume-document-store';

/** Agents' counters live beside the platforms' daily volumes, under their own `agent/…` keys. */
export function createAgentUsageDocumentStore(store: DocumentStore): AgentUsageStore {
  const volumes = createVolumeDocumentStore(store);
  const counters = store.collection<{ _id: string; used: number }>(VOLUMES_COLLECTION);
  return {
    reserve: (input) => volumes.reserve(input),
    release: (input) => volumes.release(input),
    async used(counter) {
      return (await counters.findOne({ _id: counter }))?.used ?? 0;
    },
  };
}
