import * as t from 'io-ts';
import { isDescribed, JsonSchema } from '../codec/schema';

/** JSON Schema of a codec: our own codecs carry theirs; plain io-ts codecs are translated. */
export const toSchema = (codec: t.Any): JsonSchema => {
  if (isDescribed(codec)) return codec.jsonSchema;
  const c = codec as t.Any & { _tag?: string; [k: string]: unknown };
  switch (c._tag) {
    case 'StringType':
      return { type: 'string' };
    case 'NumberType':
      return { type: 'number' };
    case 'BooleanType':
      return { type: 'boolean' };
    case 'NullType':
      return { type: 'null' };
    case 'UnknownType':
      return {};
    case 'UnknownRecordType':
      return { type: 'object' };
    case 'LiteralType':
      return { const: (c as unknown as t.LiteralType<string>).value };
    case 'KeyofType':
      return { type: 'string', enum: Object.keys((c as unknown as t.KeyofType<Record<string, unknown>>).keys) };
    case 'ArrayType':
      return { type: 'array', items: toSchema((c as unknown as t.ArrayType<t.Any>).type) };
    case 'InterfaceType':
    case 'PartialType': {
      const props = (c as unknown as t.InterfaceType<t.Props>).props;
      return {
        type: 'object',
        properties: Object.fromEntries(Object.entries(props).map(([k, v]) => [k, toSchema(v)])),
        ...(c._tag === 'InterfaceType' ? { required: Object.keys(props) } : {}),
      };
    }
    case 'UnionType':
      return { anyOf: (c as unknown as t.UnionType<t.Any[]>).types.map(toSchema) };
    case 'IntersectionType':
      return { allOf: (c as unknown as t.IntersectionType<t.Any[]>).types.map(toSchema) };
    case 'ExactType':
    case 'RefinementType':
    case 'ReadonlyType':
      return toSchema((c as unknown as { type: t.Any }).type);
    default:
      return {};
  }
};
