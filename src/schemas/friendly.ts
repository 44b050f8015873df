// Friendly names on the command line and in CSV (`active`, `daily`) for the API's enums.
// Either spelling is accepted on input; output uses the friendly one in tables and CSV.

function enumMap<const T extends string>(prefix: string, values: readonly T[]) {
  const toApi = new Map<string, T>();
  for (const value of values) {
    toApi.set(value.toLowerCase(), value);
    toApi.set(value.slice(prefix.length).toLowerCase(), value);
  }
  return {
    friendly: values.map((v) => v.slice(prefix.length).toLowerCase()),
    /** The API value for a friendly or full name (any case); undefined when unknown. */
    toApi: (input: string): T | undefined => toApi.get(input.trim().toLowerCase()),
    /** `CAMPAIGN_CONFIGURED_STATUS_ACTIVE` -> `active`; unknown values pass through. */
    toFriendly: (value: string | undefined): string | undefined => (value?.startsWith(prefix) ? value.slice(prefix.length).toLowerCase() : value),
  };
}

export const campaignStatus = enumMap('CAMPAIGN_CONFIGURED_STATUS_', ['CAMPAIGN_CONFIGURED_STATUS_ACTIVE', 'CAMPAIGN_CONFIGURED_STATUS_PAUSED'] as const);
export const adGroupStatus = enumMap('AD_GROUP_CONFIGURED_STATUS_', ['AD_GROUP_CONFIGURED_STATUS_ACTIVE', 'AD_GROUP_CONFIGURED_STATUS_PAUSED'] as const);
export const budgetUnit = enumMap('BUDGET_UNIT_', ['BUDGET_UNIT_DAILY', 'BUDGET_UNIT_WEEKLY', 'BUDGET_UNIT_FIXED'] as const);
export const matchType = enumMap('MATCH_TYPE_', ['MATCH_TYPE_EXACT', 'MATCH_TYPE_BROAD'] as const);
/** What create and update inputs send: EXACT or BROAD (from exact, broad or MATCH_TYPE_*). */
export const inputMatchType = {
  friendly: ['exact', 'broad'],
  toApi: (input: string): 'EXACT' | 'BROAD' | undefined => {
    const value = input
      .trim()
      .toUpperCase()
      .replace(/^MATCH_TYPE_/, '');
    return value === 'EXACT' || value === 'BROAD' ? value : undefined;
  },
};
export const adProduct = enumMap('SPONSORED_', ['SPONSORED_LISTING', 'SPONSORED_SEARCH'] as const);
