// The config races of test/helpers/config-races.ts at scale: 16 and 32 processes on one
// refresh, and 40 concurrent logins to 8 profiles, five rounds.
import { describeConfigRaces } from '../helpers/config-races.js';

describeConfigRaces({ refreshes: [16, 32], logins: { processes: 40, profiles: 8, rounds: 5 } });
