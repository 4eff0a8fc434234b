// The handlers of Example::TypeScript::Box, written with the official
// CloudFormation plugin library for TypeScript, as `cfn init` lays a
// project out. Nothing here knows about stacksim: it runs the library's
// own entry points (entrypoint, testEntrypoint), which stacksim's launcher
// (examples/handlers/launchers/rpdk-node.js) calls with each request.
//
// The "cloud" is a directory (EXAMPLE_CLOUD_DIR, ./.cloud by default) with
// a JSON file per box, so that tests control it and can look inside.
import {
    Action,
    BaseResource,
    exceptions,
    handlerEvent,
    OperationStatus,
    Optional,
    ProgressEvent,
    ResourceHandlerRequest,
    SessionProxy,
} from '@amazon-web-services-cloudformation/cloudformation-cli-typescript-lib';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { ResourceModel } from './models';

interface CallbackContext {
    stabilizing?: string;
}

// A box's record in the cloud: its properties by their schema names.
type Box = Record<string, unknown>;

const STABILIZE_SECONDS = 5; // virtual seconds under stacksim

function cloudDir(): string {
    const dir = process.env.EXAMPLE_CLOUD_DIR || '.cloud';
    fs.mkdirSync(dir, { recursive: true });
    return dir;
}

function boxPath(id: string): string {
    return path.join(cloudDir(), `${id}.json`);
}

function load(id: Optional<string>): Box | null {
    if (!id || id.includes('/')) {
        return null;
    }
    try {
        return JSON.parse(fs.readFileSync(boxPath(id), 'utf8'));
    } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
            return null;
        }
        throw err;
    }
}

function save(box: Box): void {
    const file = boxPath(box.Id as string);
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(box));
    fs.renameSync(`${file}.tmp`, file);
}

function boxId(name: string): string {
    return 'box-' + createHash('sha256').update(name).digest('hex').slice(0, 12);
}

// toModel is what a handler answers: the box without its writeOnly Secret.
function toModel(box: Box): ResourceModel {
    const { Secret, State, ...rest } = box;
    return ResourceModel.deserialize(rest);
}

// fromModel is a box's record of a request's model.
function fromModel(model: ResourceModel): Box {
    return model.serialize() as Box;
}

class Resource extends BaseResource<ResourceModel> {
    @handlerEvent(Action.Create)
    public async create(
        session: Optional<SessionProxy>,
        request: ResourceHandlerRequest<ResourceModel>,
        callbackContext: CallbackContext,
    ): Promise<ProgressEvent<ResourceModel, CallbackContext>> {
        if (callbackContext.stabilizing) {
            // The callback: the box is ready now.
            const box = load(callbackContext.stabilizing);
            if (!box) {
                throw new exceptions.NotStabilized(`box ${callbackContext.stabilizing} vanished while it was being made`);
            }
            box.State = 'ready';
            save(box);
            return ProgressEvent.success<ProgressEvent<ResourceModel, CallbackContext>>(toModel(box));
        }
        const model = request.desiredResourceState;
        if (model.id != null || model.arn != null) {
            throw new exceptions.InvalidRequest('Id and Arn are read-only: the handler sets them');
        }
        if (!model.name) {
            throw new exceptions.InvalidRequest('Name is required');
        }
        const id = boxId(model.name);
        if (load(id)) {
            throw new exceptions.AlreadyExists(ResourceModel.TYPE_NAME, id);
        }
        const box: Box = { ...fromModel(model), Id: id, Arn: `arn:example:box:${request.region}:${id}`, State: 'creating' };
        save(box);
        return ProgressEvent.builder<ProgressEvent<ResourceModel, CallbackContext>>()
            .status(OperationStatus.InProgress)
            .resourceModel(toModel(box))
            .callbackContext({ stabilizing: id })
            .callbackDelaySeconds(STABILIZE_SECONDS)
            .build();
    }

    @handlerEvent(Action.Read)
    public async read(
        session: Optional<SessionProxy>,
        request: ResourceHandlerRequest<ResourceModel>,
    ): Promise<ProgressEvent<ResourceModel>> {
        const box = load(request.desiredResourceState.id);
        if (!box) {
            throw new exceptions.NotFound(ResourceModel.TYPE_NAME, request.desiredResourceState.id);
        }
        return ProgressEvent.success<ProgressEvent<ResourceModel>>(toModel(box));
    }

    @handlerEvent(Action.Update)
    public async update(
        session: Optional<SessionProxy>,
        request: ResourceHandlerRequest<ResourceModel>,
    ): Promise<ProgressEvent<ResourceModel>> {
        const model = request.desiredResourceState;
        const box = load(model.id);
        if (!box) {
            throw new exceptions.NotFound(ResourceModel.TYPE_NAME, model.id);
        }
        if (model.name != null && model.name !== box.Name) {
            throw new exceptions.NotUpdatable(`Name cannot change (from ${box.Name} to ${model.name}); CloudFormation replaces the box`);
        }
        const updated: Box = { ...fromModel(model), Id: box.Id, Arn: box.Arn, State: box.State };
        save(updated);
        return ProgressEvent.success<ProgressEvent<ResourceModel>>(toModel(updated));
    }

    @handlerEvent(Action.Delete)
    public async delete(
        session: Optional<SessionProxy>,
        request: ResourceHandlerRequest<ResourceModel>,
    ): Promise<ProgressEvent<ResourceModel>> {
        const box = load(request.desiredResourceState.id);
        if (!box) {
            throw new exceptions.NotFound(ResourceModel.TYPE_NAME, request.desiredResourceState.id);
        }
        fs.unlinkSync(boxPath(box.Id as string));
        return ProgressEvent.success<ProgressEvent<ResourceModel>>();
    }

    @handlerEvent(Action.List)
    public async list(): Promise<ProgressEvent<ResourceModel>> {
        const models = fs
            .readdirSync(cloudDir())
            .filter((f) => f.endsWith('.json'))
            .sort()
            .map((f) => ResourceModel.deserialize({ Id: f.slice(0, -'.json'.length) }));
        return ProgressEvent.builder<ProgressEvent<ResourceModel>>()
            .status(OperationStatus.Success)
            .resourceModels(models)
            .build();
    }
}

export const resource = new Resource(ResourceModel.TYPE_NAME, ResourceModel);

// The library's entry points: the Lambda handler CloudFormation invokes,
// and the local test entry point (SAM's TestEntrypoint).
export const entrypoint = resource.entrypoint;
export const testEntrypoint = resource.testEntrypoint;
