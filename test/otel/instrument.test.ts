/**
 * `instrument()` and `disable()` themselves: what they subscribe to and bind, and that nothing of it
 * is left behind (a channel left active would make the SDK keep publishing).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { CHANNELS, instrument } from '../../src/otel.js';

const state = () =>
  Object.values(CHANNELS).map((name) => {
    const tc = tracingChannel(name);
    return [name, tc.hasSubscribers, tc.start.hasSubscribers] as const;
  });

describe('instrument()', () => {
  it('follows every channel, and disable() leaves none subscribed or bound', () => {
    expect(state().every(([, traced]) => !traced)).toBe(true);

    const telemetry = instrument();
    // Every channel followed; the start of a validation gets no span, so nothing is bound to its start.
    expect(state()).toEqual(
      Object.values(CHANNELS).map((name) => [name, true, name !== CHANNELS.validationStart]),
    );

    telemetry.disable();
    // The start channel stays active while a store is bound to it: false here means unbound too.
    expect(state()).toEqual(Object.values(CHANNELS).map((name) => [name, false, false]));
    telemetry.disable(); // twice is harmless
    expect(state().every(([, traced]) => !traced)).toBe(true);
  });
});
