// Shapes the ads write tests read back: a bulk result row (-o json/ndjson) and a campaign
// as the API returns it.

export interface Result {
  line: number;
  id: string;
  result: string;
  error_code: string;
  error_message: string;
}

export interface Campaign {
  campaign_id: string;
  name: string;
  configured_status: string;
  budget?: { unit: string; total: { amount_e5: string; currency_code: string } };
}
