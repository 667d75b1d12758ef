/** Whether a bot is who its User-Agent says: proven (`yes`), proven false (`no`), or not known (no address, no method, no answer yet, or a lookup that failed). */
export type Verification = 'yes' | 'no' | 'unknown';
