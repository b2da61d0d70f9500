import { useState } from 'preact/hooks';
import { type Answer, ok } from '../../../api/client';
import { isWithin } from '../../../shared/category-tree';
import { fieldError, problemBeyondFields } from '../../../shared/problem';
import { ErrorMessage, Field, SelectField } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useWrite } from '../../use-write';
import { StatusMessage } from '../common/form-parts';
import { BLANK_PAGE_TEXT, type PageText, PageTextFields, pageBody, pageText } from './seo-fields';

export type Category = Answer<'/product/dashboard/api/categories/', 'get'>[number];

const FIELDS = ['name', 'handle', 'description', 'seo_title', 'seo_description', 'parent_id', 'position'];

/** "Coffee › Mugs": a category named with its ancestors, for the parent select. */
function pathName(categories: Category[], category: Category): string {
  const names: string[] = [];
  const seen = new Set<number>();
  let current: Category | undefined = category;
  while (current && !seen.has(current.id)) {
    seen.add(current.id);
    names.unshift(current.name);
    const parentId: number | null = current.parent_id;
    current = categories.find((c) => c.id === parentId);
  }
  return names.join(' › ');
}

/**
 * A category's form: create one (at the top or under a parent) or edit one, which moves it when its parent or
 * position changes. The API's refusals show beside their fields: `handle_taken` beside Handle, `category_cycle`
 * beside Parent (the parents that would cause it are offered anyway, so the API's rule is the one that decides).
 */
export function CategoryForm(props: {
  category?: Category;
  categories: Category[];
  onSaved: (category: Category) => void;
  onClose?: () => void;
}) {
  const { api } = useDashboard();
  const { category, categories } = props;
  const [text, setText] = useState<PageText>(category ? pageText(category) : BLANK_PAGE_TEXT);
  const [parent, setParent] = useState(category?.parent_id === null || !category ? '' : String(category.parent_id));
  const [position, setPosition] = useState(category ? String(category.position) : '');
  const write = useWrite();
  const title = category ? `Edit ${category.name}` : 'New category';

  const submit = async (event: Event) => {
    event.preventDefault();
    const parentId = parent === '' ? null : Number(parent);
    const at = position.trim() === '' ? {} : { position: Number(position) };
    const saved = await write.run(
      () =>
        category
          ? ok(
              api.PATCH('/product/dashboard/api/categories/{id}/', {
                params: { path: { id: category.id } },
                body: { ...pageBody(text), parent_id: parentId, ...at },
              }),
            )
          : ok(
              api.POST('/product/dashboard/api/categories/', {
                body: { ...pageBody(text), parent_id: parentId, ...at },
              }),
            ),
      (c) => (category ? `Category ${c.name} saved.` : `Category ${c.name} created (${c.handle}).`),
    );
    if (!saved) return;
    if (!category) {
      setText(BLANK_PAGE_TEXT);
      setPosition('');
    }
    props.onSaved(saved);
  };

  return (
    <form class="panel" aria-label={title} onSubmit={submit}>
      <h2>{title}</h2>
      <PageTextFields value={text} onChange={setText} problem={write.problem} />
      <div class="fields">
        <SelectField
          label="Parent"
          value={parent}
          error={fieldError(write.problem, 'parent_id')}
          onChange={(e) => setParent(e.currentTarget.value)}
        >
          <option value="">None (top level)</option>
          {categories
            .filter((c) => c.id !== category?.id)
            .map((c) => (
              <option key={c.id} value={String(c.id)}>
                {pathName(categories, c)}
                {category && isWithin(categories, c.id, category.id) ? ' (under this category)' : ''}
              </option>
            ))}
        </SelectField>
        <Field
          label="Position"
          type="number"
          min={0}
          hint="Among its siblings, 0 first; empty: last."
          value={position}
          error={fieldError(write.problem, 'position')}
          onInput={(e) => setPosition(e.currentTarget.value)}
        />
      </div>
      <ErrorMessage problem={problemBeyondFields(write.problem, FIELDS)} />
      <StatusMessage text={write.done} />
      <div class="row">
        <button type="submit" disabled={write.busy}>
          {category ? 'Save category' : 'Create category'}
        </button>
        {props.onClose && (
          <button type="button" class="secondary" onClick={props.onClose}>
            Close
          </button>
        )}
      </div>
    </form>
  );
}
