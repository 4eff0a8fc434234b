// The resource model of Example::TypeScript::Box, written as the
// CloudFormation CLI's TypeScript plugin generates models (cfn generate):
// a class per model, its properties exposed under their schema names, and
// CloudFormation's stringified scalars ("3") recast to their types.
import { BaseModel, Dict, Optional, transformValue } from '@amazon-web-services-cloudformation/cloudformation-cli-typescript-lib';
import { Exclude, Expose, Transform } from 'class-transformer';

export class ResourceModel extends BaseModel {
    ['constructor']: typeof ResourceModel;

    @Exclude()
    public static readonly TYPE_NAME: string = 'Example::TypeScript::Box';

    @Exclude()
    protected readonly IDENTIFIER_KEY_ID: string = '/properties/Id';

    @Expose({ name: 'Id' })
    @Transform(({ value, obj }) => transformValue(String, 'id', value, obj, []), { toClassOnly: true })
    id?: Optional<string>;

    @Expose({ name: 'Arn' })
    @Transform(({ value, obj }) => transformValue(String, 'arn', value, obj, []), { toClassOnly: true })
    arn?: Optional<string>;

    @Expose({ name: 'Name' })
    @Transform(({ value, obj }) => transformValue(String, 'name', value, obj, []), { toClassOnly: true })
    name?: Optional<string>;

    @Expose({ name: 'Size' })
    @Transform(({ value, obj }) => transformValue(Number, 'size', value, obj, []), { toClassOnly: true })
    size?: Optional<number>;

    @Expose({ name: 'Label' })
    @Transform(({ value, obj }) => transformValue(String, 'label', value, obj, []), { toClassOnly: true })
    label?: Optional<string>;

    @Expose({ name: 'Secret' })
    @Transform(({ value, obj }) => transformValue(String, 'secret', value, obj, []), { toClassOnly: true })
    secret?: Optional<string>;

    @Exclude()
    public getPrimaryIdentifier(): Dict {
        const identifier: Dict = {};
        if (this.id != null) {
            identifier[this.IDENTIFIER_KEY_ID] = this.id;
        }
        return Object.keys(identifier).length === 1 ? identifier : null;
    }
}
