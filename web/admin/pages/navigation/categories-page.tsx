import { useState } from 'preact/hooks';
import { ok } from '../../../api/client';
import { type CategoryNode, nestCategories } from '../../../shared/category-tree';
import type { Problem } from '../../../shared/problem';
import { ErrorMessage } from '../../../shared/ui';
import { useDashboard } from '../../context';
import { useLoaded } from '../../use-loaded';
import { useWrite } from '../../use-write';
import { ConfirmButton } from '../common/confirm-button';
import { StatusMessage } from '../common/form-parts';
import { type Category, CategoryForm } from './category-form';

/** Why a delete was refused, in words: 409 category_has_children names the subcategories to move first. */
function deleteRefusal(problem: Problem | undefined, categories: Category[]): string | undefined {
  if (problem === undefined) return undefined;
  if (problem.code !== 'category_has_children') return problem.detail ?? problem.title;
  // The problem's own member (extra fields of problem+json are not in the generated type).
  const children = (problem as { children?: unknown }).children;
  const ids = Array.isArray(children) ? children.filter((id): id is number => typeof id === 'number') : [];
  const names = ids.map((id) => categories.find((c) => c.id === id)?.name ?? `#${id}`);
  return `It has subcategories (${names.join(', ')}): move or delete them first.`;
}

function Branch(props: {
  nodes: CategoryNode<Category>[];
  categories: Category[];
  busy: boolean;
  refused: { id: number; text: string } | undefined;
  onEdit: (id: number) => void;
  onDelete: (category: Category) => void;
}) {
  return (
    <ul class="tree">
      {props.nodes.map((node) => (
        <li key={node.id}>
          <div class="row tree-item">
            <span>
              <strong>{node.name}</strong> <span class="muted break">/{node.handle}</span>
            </span>
            <button
              type="button"
              class="secondary"
              aria-label={`Edit ${node.name}`}
              onClick={() => props.onEdit(node.id)}
            >
              Edit
            </button>
            <ConfirmButton
              label={`Delete ${node.name}`}
              warning={`Delete ${node.name}? Its products stay, out of it.`}
              disabled={props.busy}
              onConfirm={() => props.onDelete(node)}
            />
          </div>
          {props.refused?.id === node.id && (
            <p role="alert" class="error">
              {props.refused.text}
            </p>
          )}
          {node.children.length > 0 && <Branch {...props} nodes={node.children} />}
        </li>
      ))}
    </ul>
  );
}

/**
 * /admin/categories: the category tree (subcategories under their parent, in order), with a form to create one, and
 * Edit (name, handle, description, SEO, parent and position: a move) and Delete on each.
 */
export function CategoriesPage() {
  const { api } = useDashboard();
  const categories = useLoaded(() => ok(api.GET('/product/dashboard/api/categories/')), 'categories');
  const [editing, setEditing] = useState<number>();
  const remove = useWrite();
  const [removing, setRemoving] = useState<number>();
  const all = categories.data ?? [];

  const deleteCategory = (category: Category) => {
    setRemoving(category.id);
    void remove
      .run(
        () =>
          ok(api.DELETE('/product/dashboard/api/categories/{id}/', { params: { path: { id: category.id } } })).then(
            () => category,
          ),
        (deleted) => `Category ${deleted.name} deleted.`,
      )
      .then((deleted) => {
        if (!deleted) return;
        if (editing === deleted.id) setEditing(undefined);
        void categories.reload();
      });
  };
  const refusal = deleteRefusal(remove.problem, all);
  const edited = all.find((c) => c.id === editing);
  return (
    <>
      <h1>Categories</h1>
      <p class="muted">
        The shop's navigation: a category's page lists its products and those of its subcategories. Put products in
        categories on their page under Products.
      </p>
      <ErrorMessage problem={categories.problem} />
      <StatusMessage text={remove.done} />
      {categories.data === undefined && categories.problem === undefined && <p>Loading…</p>}
      {categories.data?.length === 0 && <p>No categories yet.</p>}
      {all.length > 0 && (
        <nav aria-label="Category tree">
          <Branch
            nodes={nestCategories(all)}
            categories={all}
            busy={remove.busy}
            refused={removing !== undefined && refusal ? { id: removing, text: refusal } : undefined}
            onEdit={setEditing}
            onDelete={deleteCategory}
          />
        </nav>
      )}
      {edited && (
        <CategoryForm
          key={edited.id}
          category={edited}
          categories={all}
          onSaved={() => void categories.reload()}
          onClose={() => setEditing(undefined)}
        />
      )}
      <CategoryForm categories={all} onSaved={() => void categories.reload()} />
    </>
  );
}
