/** An option as saved (the product's) and as the editor now has it (its values split from their comma list). */
export interface OptionChange {
  saved: { name: string; values: readonly string[] } | undefined;
  name: string;
  values: readonly string[];
}

/**
 * What an edited option renames, in the fields `PUT …/options/` takes (docs/api.md, "Options"): its name when it
 * changed, and each value changed in place — the list as long as before, the value at its place new, and the one it
 * replaces gone (a value moved elsewhere in the list is a reorder, not a rename). A rename keeps the variants that have
 * it; anything else added is new, anything else gone is removed (its variants archived).
 */
export function optionRenames(change: OptionChange): {
  renamed_from?: string;
  values_renamed_from?: Record<string, string>;
} {
  const { saved } = change;
  if (saved === undefined) return {};
  const renamed: Record<string, string> = {};
  if (saved.values.length === change.values.length) {
    change.values.forEach((value, i) => {
      const before = saved.values[i];
      if (before !== undefined && value !== before && !saved.values.includes(value) && !change.values.includes(before))
        renamed[value] = before;
    });
  }
  return {
    ...(change.name !== saved.name ? { renamed_from: saved.name } : {}),
    ...(Object.keys(renamed).length > 0 ? { values_renamed_from: renamed } : {}),
  };
}
