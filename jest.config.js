// Nest 12 ships as ES modules only, so Jest runs in its native ESM mode
// (`node --experimental-vm-modules`, see package.json) with ts-jest emitting ESM.
const transform = {
  '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: 'tsconfig.json' }],
};
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform,
  // Sources import './x.js' (NodeNext); map back to the .ts file for ts-jest.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
};

export default {
  maxWorkers: 2,
  // e2e specs boot the app, spawn processes and wait for deliveries.
  testTimeout: 30000,
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/sandbox/**/*.spec.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      // Every answer received through supertest is checked against the served OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/test/support/contract/supertest-contract.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
    },
    {
      ...common,
      displayName: 'reliability',
      testMatch: ['<rootDir>/test/reliability/**/*.rel-spec.ts'],
      setupFilesAfterEnv: ['<rootDir>/test/support/contract/supertest-contract.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.mjs',
      globalTeardown: '<rootDir>/test/support/global-teardown.mjs',
    },
  ],
};
