// States and provinces of the countries whose addresses need one, as the API takes them: the postal code of the
// subdivision (ISO 3166-2 without the country), which tax and shipping rates name. Other countries keep a free field.
const REGIONS: Record<string, string> = {
  US: [
    'AL Alabama|AK Alaska|AZ Arizona|AR Arkansas|CA California|CO Colorado|CT Connecticut|DE Delaware',
    'DC District of Columbia|FL Florida|GA Georgia|HI Hawaii|ID Idaho|IL Illinois|IN Indiana|IA Iowa|KS Kansas',
    'KY Kentucky|LA Louisiana|ME Maine|MD Maryland|MA Massachusetts|MI Michigan|MN Minnesota|MS Mississippi',
    'MO Missouri|MT Montana|NE Nebraska|NV Nevada|NH New Hampshire|NJ New Jersey|NM New Mexico|NY New York',
    'NC North Carolina|ND North Dakota|OH Ohio|OK Oklahoma|OR Oregon|PA Pennsylvania|RI Rhode Island',
    'SC South Carolina|SD South Dakota|TN Tennessee|TX Texas|UT Utah|VT Vermont|VA Virginia|WA Washington',
    'WV West Virginia|WI Wisconsin|WY Wyoming|AS American Samoa|GU Guam|MP Northern Mariana Islands|PR Puerto Rico',
    'VI U.S. Virgin Islands|AA Armed Forces Americas|AE Armed Forces Europe|AP Armed Forces Pacific',
  ].join('|'),
  CA: [
    'AB Alberta|BC British Columbia|MB Manitoba|NB New Brunswick|NL Newfoundland and Labrador',
    'NS Nova Scotia|NT Northwest Territories|NU Nunavut|ON Ontario|PE Prince Edward Island|QC Quebec',
    'SK Saskatchewan|YT Yukon',
  ].join('|'),
  AU: [
    'ACT Australian Capital Territory|NSW New South Wales|NT Northern Territory|QLD Queensland',
    'SA South Australia|TAS Tasmania|VIC Victoria|WA Western Australia',
  ].join('|'),
};

export interface Region {
  code: string;
  name: string;
}

/** What the country calls its subdivisions, for the field's label. */
const LABELS: Record<string, string> = { US: 'State', CA: 'Province or territory', AU: 'State or territory' };

/** The subdivisions of `country` (ISO alpha-2), by name; undefined for a country without a list here. */
export function regionsOf(country: string): Region[] | undefined {
  const list = REGIONS[country.toUpperCase()];
  if (list === undefined) return undefined;
  return list
    .split('|')
    .map((entry) => {
      const space = entry.indexOf(' ');
      return { code: entry.slice(0, space), name: entry.slice(space + 1) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function regionLabel(country: string): string {
  return LABELS[country.toUpperCase()] ?? 'State or region';
}
