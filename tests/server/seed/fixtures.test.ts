import { demoFixtures } from '../../../server/seed/fixtures';

describe('the demo fleet', () => {
  it('has a driver of its own name for every vehicle, as a real fleet does', () => {
    const names = demoFixtures.drivers.map((d) => d.name);
    expect(names.length).toBe(demoFixtures.vehicles.length);
    expect(new Set(names).size).toBe(names.length);
    // Each vehicle's driver is one of its own organisation's.
    for (const v of demoFixtures.vehicles) expect(demoFixtures.drivers.find((d) => d.name === v.driver)?.org).toBe(v.org);
  });
});
