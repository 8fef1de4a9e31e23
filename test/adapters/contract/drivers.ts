/** The platforms the adapter contract suite runs on. */
import { discordDriver } from './discordDriver.js';
import type { Driver } from './driver.js';
import { slackDriver } from './slackDriver.js';

export const DRIVERS: readonly Driver[] = [discordDriver, slackDriver];
