import { describe, expect, it } from 'vitest';

import { minutesLabel, secondsAsMinutesLabel } from './duration';

describe('minutesLabel', () => {
  it.each([
    [0, '0 min'],
    [4, '4 min'],
    [59, '59 min'],
    [60, '1 h'],
    [65, '1 h 5 min'],
    [125, '2 h 5 min'],
  ])('says %i minutes as "%s"', (minutes, label) => {
    expect(minutesLabel(minutes)).toBe(label);
  });
});

describe('secondsAsMinutesLabel', () => {
  it.each([
    [0, '< 1 min'],
    [29, '< 1 min'],
    [30, '1 min'],
    [240, '4 min'],
    [269, '4 min'],
    [270, '5 min'],
    [3900, '1 h 5 min'],
  ])('says %i seconds as "%s"', (seconds, label) => {
    expect(secondsAsMinutesLabel(seconds)).toBe(label);
  });
});
