// Which fields of the items a --query reads, found by walking its syntax tree (the JMESPath
// library's own parser: query.ts compiles it), so that a name the items do not have is
// refused rather than answered with nothing: `[?status=='active']` matched no campaign and
// exited 0, the API's field being `configured_status`. Pure: no parser, no schema is loaded here.

/** The fields of an object, each with the shape of its value (`true`: not looked into). */
export interface ObjectShape {
  readonly [field: string]: FieldShape;
}
/** An object's fields, a list of values of one shape (`[shape]`), or a value not looked into. */
export type FieldShape = ObjectShape | readonly [FieldShape] | true;

/** A name a query reads where the object it reads it from has no such field. */
export interface UnknownField {
  /** The name as written. */
  name: string;
  /** Where it was read: '' for an item's own fields, else the path of the object (`budget.total`). */
  parent: string;
  /** The fields that object has. */
  known: string[];
}

/** What an expression is evaluated against, as far as the walk can tell. */
type Place = { shape: ObjectShape; path: string } | { listOf: FieldShape; path: string } | undefined;

type Node = { type: string; [key: string]: unknown };

function placeOf(shape: FieldShape | undefined, path: string): Place {
  if (shape === undefined || shape === true) return undefined;
  return isList(shape) ? { listOf: shape[0], path } : { shape, path };
}

const isList = (shape: ObjectShape | readonly [FieldShape]): shape is readonly [FieldShape] => Array.isArray(shape);

/** The element place of a list place (a projection, an index, a filter). */
function elementOf(place: Place): Place {
  return place && 'listOf' in place ? placeOf(place.listOf, place.path) : undefined;
}

/** A list place stays one (a slice, a sort); anything else is not known. */
const listOnly = (place: Place): Place => (place && 'listOf' in place ? place : undefined);

/** What a projection gives: a list of what it gave for each element. */
function listOfPlace(place: Place): Place {
  if (!place) return undefined;
  return 'shape' in place ? { listOf: place.shape, path: place.path } : { listOf: [place.listOf], path: place.path };
}

/** `[]`: a list of lists becomes one list; a list of anything else stays as it is. */
function flattened(place: Place): Place {
  const list = listOnly(place);
  if (!list || !('listOf' in list)) return undefined;
  const inner = list.listOf;
  return inner !== true && Array.isArray(inner) ? placeOf(inner as readonly [FieldShape], list.path) : list;
}

/** Functions whose expression arguments (`&name`) are read from each element of their first argument. */
const EXPREF_FUNCTIONS = new Set(['sort_by', 'max_by', 'min_by', 'group_by', 'map']);
/** Functions that give back a list of the same elements as their first argument. */
const SAME_LIST = new Set(['sort_by', 'reverse', 'sort']);
/** Functions that give back one element of their first argument. */
const ONE_ELEMENT = new Set(['max_by', 'min_by']);

/**
 * The field names `tree` reads that the objects they are read from do not have. `root` is what
 * the whole expression is applied to (a list of items, or one item). Only names the walk is
 * sure of are reported: after a function, a literal or a variable it stops looking.
 */
export function unknownFields(tree: unknown, root: FieldShape): UnknownField[] {
  const found: UnknownField[] = [];
  const rootPlace = placeOf(root, '');
  // Recursive: queryProblem has refused a tree deeper than MAX_QUERY_DEPTH levels already.
  const visit = (node: Node, place: Place): Place => {
    switch (node.type) {
      case 'Field': {
        const name = node.name as string;
        if (!place || !('shape' in place)) return undefined;
        const shape = place.shape[name];
        if (shape === undefined) {
          found.push({ name, parent: place.path, known: Object.keys(place.shape) });
          return undefined;
        }
        return placeOf(shape, place.path ? `${place.path}.${name}` : name);
      }
      case 'Identity':
      case 'Current':
        return place;
      case 'Root':
        return rootPlace;
      case 'Subexpression':
      case 'Pipe':
        return visit(node.right as Node, visit(node.left as Node, place));
      case 'IndexExpression': {
        const left = visit(node.left as Node, place);
        const right = node.right as Node;
        if (right.type === 'Index') return elementOf(left);
        if (right.type === 'Slice') return listOnly(left);
        return visit(right, left);
      }
      case 'Projection': {
        const left = visit(node.left as Node, place);
        return listOfPlace(visit(node.right as Node, elementOf(left)));
      }
      case 'FilterProjection': {
        const left = visit(node.left as Node, place);
        const element = elementOf(left);
        visit(node.condition as Node, element);
        return listOfPlace(visit(node.right as Node, element));
      }
      case 'Flatten':
        return flattened(visit(node.child as Node, place));
      case 'ValueProjection':
        visit(node.left as Node, place);
        return undefined;
      case 'Function': {
        const name = node.name as string;
        const children = node.children as Node[];
        const first = children[0] ? visit(children[0], place) : undefined;
        for (const child of children.slice(1)) {
          if (child.type === 'ExpressionReference') visit(child.child as Node, EXPREF_FUNCTIONS.has(name) ? elementOf(first) : undefined);
          else visit(child, place);
        }
        if (SAME_LIST.has(name)) return listOnly(first);
        if (ONE_ELEMENT.has(name)) return elementOf(first);
        return undefined;
      }
      case 'MultiSelectList':
        for (const child of node.children as Node[]) visit(child, place);
        return undefined;
      case 'MultiSelectHash':
        for (const pair of node.children as Node[]) visit(pair.value as Node, place);
        return undefined;
      case 'Comparator':
      case 'AndExpression':
      case 'OrExpression':
      case 'Arithmetic':
        visit(node.left as Node, place);
        visit(node.right as Node, place);
        return undefined;
      case 'NotExpression':
      case 'ExpressionReference':
        visit(node.child as Node, place);
        return undefined;
      case 'Unary':
        visit(node.operand as Node, place);
        return undefined;
      case 'Ternary':
        visit(node.condition as Node, place);
        visit(node.trueExpr as Node, place);
        visit(node.falseExpr as Node, place);
        return undefined;
      case 'LetExpression':
        // What a variable holds is not followed: its body is read as from an unknown place.
        for (const binding of node.bindings as Node[]) visit(binding.reference as Node, place);
        visit(node.expression as Node, undefined);
        return undefined;
      default:
        // Literal, Variable, Index, Slice alone: nothing read by name.
        return undefined;
    }
  };
  visit(tree as Node, rootPlace);
  return found;
}

/** Edit distance between two short names (the closest field is suggested). */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row.push(Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = row;
  }
  return previous[b.length]!;
}

/** The known name closest to `name`, when one is close enough to be what was meant. */
export function closest(name: string, known: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of known) {
    // A name inside the other (`status` in `configured_status`) is as good as a near spelling.
    const distance = candidate.includes(name) || name.includes(candidate) ? 1 : editDistance(name, candidate);
    if (distance < bestDistance) [best, bestDistance] = [candidate, distance];
  }
  return best !== undefined && bestDistance <= Math.max(2, Math.floor(name.length / 3)) ? best : undefined;
}
