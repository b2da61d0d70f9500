import { fieldError, type Problem } from '../../../shared/problem';
import { Field } from '../../../shared/ui';
import { TextAreaField } from '../common/form-parts';

/** What a category's or collection's form edits beside its own fields: name, handle, description and SEO. */
export interface PageText {
  name: string;
  handle: string;
  description: string;
  seo_title: string;
  seo_description: string;
}

export const BLANK_PAGE_TEXT: PageText = { name: '', handle: '', description: '', seo_title: '', seo_description: '' };

export function pageText(record: {
  name: string;
  handle: string;
  description: string;
  seo_title: string | null;
  seo_description: string | null;
}): PageText {
  return {
    name: record.name,
    handle: record.handle,
    description: record.description,
    seo_title: record.seo_title ?? '',
    seo_description: record.seo_description ?? '',
  };
}

/**
 * The body's text fields: an empty handle is left out (the API makes one from the name on create, and keeps the one
 * it has on edit); empty SEO fields are sent as null (cleared: the storefront falls back to the name and description).
 */
export function pageBody(text: PageText) {
  const handle = text.handle.trim();
  return {
    name: text.name,
    ...(handle ? { handle } : {}),
    description: text.description,
    seo_title: text.seo_title.trim() || null,
    seo_description: text.seo_description.trim() || null,
  };
}

/** Name, handle, description, SEO title and description, each with the API's error beside it. */
export function PageTextFields(props: {
  value: PageText;
  onChange: (value: PageText) => void;
  problem: Problem | undefined;
}) {
  const { value, onChange, problem } = props;
  const bind = (name: keyof PageText) => ({
    value: value[name],
    error: fieldError(problem, name),
    onInput: (e: { currentTarget: HTMLInputElement | HTMLTextAreaElement }) =>
      onChange({ ...value, [name]: e.currentTarget.value }),
  });
  return (
    <>
      <div class="fields">
        <Field label="Name" required {...bind('name')} />
        <Field label="Handle" hint="In the shop's address; empty: made from the name." {...bind('handle')} />
      </div>
      <TextAreaField label="Description" rows={2} {...bind('description')} />
      <div class="fields">
        <Field label="SEO title" hint="The page's title; empty: the name." maxLength={200} {...bind('seo_title')} />
        <Field
          label="SEO description"
          hint="For search results; empty: the start of the description."
          maxLength={500}
          {...bind('seo_description')}
        />
      </div>
    </>
  );
}
