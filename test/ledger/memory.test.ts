import { describe } from 'vitest';
import { MemoryOfferLedger } from '../../src/index.js';
import { ledgerContract } from './contract.js';

describe('MemoryOfferLedger', () => {
  let now = 1_800_000_000_000;
  ledgerContract({
    make: (options) => new MemoryOfferLedger({ ...options, now: () => now } as never),
    pass: async (ms) => {
      now += ms;
    },
    now: () => now,
  });
});
