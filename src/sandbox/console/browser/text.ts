// How the console page words what the sandbox sends: hostile text made visible, enums and
// HTTP statuses in words (the raw value stays in the cell's title).

/** Control, bidi and other invisible characters as \uXXXX: what a hostile body holds is seen, not obeyed. */
export function visible(value: unknown): string {
  const s = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  return s.replace(
    /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** "Active" for CAMPAIGN_CONFIGURED_STATUS_ACTIVE. */
export function campaignStatusLabel(status: string): string {
  const word = status
    .replace(/^CAMPAIGN_CONFIGURED_STATUS_/, '')
    .replace(/_/g, ' ')
    .toLowerCase();
  return word.charAt(0).toUpperCase() + word.slice(1);
}

const REASONS: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  409: 'Conflict',
  412: 'Precondition Failed',
  413: 'Content Too Large',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function httpStatusText(status: number): string {
  return `HTTP ${status}${REASONS[status] ? ` ${REASONS[status]}` : ''}`;
}
