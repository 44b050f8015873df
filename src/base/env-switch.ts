// A yes/no setting written in the environment (PLATFORM_ACCESSIBLE, PLATFORM_CSV_DECIMAL_COMMA).

const ON = ['1', 'true', 'yes', 'on'];
const OFF = ['0', 'false', 'no', 'off'];

/** true for 1/true/yes/on, false for 0/false/no/off (any case, spaces around); undefined for anything else, unset or empty. */
export function switchOf(text: string | undefined): boolean | undefined {
  const value = text?.trim().toLowerCase();
  if (value && ON.includes(value)) return true;
  if (value && OFF.includes(value)) return false;
  return undefined;
}
