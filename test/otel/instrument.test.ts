/**
 * `instrument()` and `disable()` themselves: what they subscribe to and bind, and that nothing of it
 * is left behind (a channel left active would make the SDK keep publishing).
 */
import { tracingChannel } from 'node:diagnostics_channel';
import { describe, expect, it } from 'vitest';
import { OptionsError } from '../../src/index.js';
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

  it('refuses a second instrumentation while one records, and takes one again after disable()', () => {
    const first = instrument();
    // Two would not record side by side: each span would nest in the other's (one context store).
    expect(() => instrument()).toThrow(OptionsError);
    expect(() => instrument()).toThrow(/already recording.*disable\(\)/);
    // The refused call changed nothing: the first still follows every channel.
    expect(state().every(([, traced]) => traced)).toBe(true);
    first.disable();
    const second = instrument();
    first.disable(); // the first's disable() again does not touch the second
    expect(state().every(([, traced]) => traced)).toBe(true);
    second.disable();
    expect(state().every(([, traced]) => !traced)).toBe(true);
  });
});
