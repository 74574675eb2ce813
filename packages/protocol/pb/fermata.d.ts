import * as $protobuf from "protobufjs/minimal.js";
import Long from "long";

export namespace fermata {

    namespace v1 {

        class Admin extends $protobuf.rpc.Service {
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): Admin;
            createTopic: fermata.v1.Admin.CreateTopic;
            updateTopic: fermata.v1.Admin.UpdateTopic;
            deleteTopic: fermata.v1.Admin.DeleteTopic;
            listTopics: fermata.v1.Admin.ListTopics;
            getTopicStats: fermata.v1.Admin.GetTopicStats;
            createGroup: fermata.v1.Admin.CreateGroup;
            updateGroup: fermata.v1.Admin.UpdateGroup;
            deleteGroup: fermata.v1.Admin.DeleteGroup;
            testPush: fermata.v1.Admin.TestPush;
        }

        namespace Admin {
            type CreateTopicCallback = (error: (Error|null), response?: fermata.v1.CreateTopicResponse) => void;
            type CreateTopic = {
              (request: fermata.v1.ICreateTopicRequest, callback: fermata.v1.Admin.CreateTopicCallback): void;
              (request: fermata.v1.ICreateTopicRequest): Promise<fermata.v1.CreateTopicResponse>;
              readonly name: "CreateTopic";
              readonly path: "/fermata.v1.Admin/CreateTopic";
              readonly requestType: "CreateTopicRequest";
              readonly responseType: "CreateTopicResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type UpdateTopicCallback = (error: (Error|null), response?: fermata.v1.UpdateTopicResponse) => void;
            type UpdateTopic = {
              (request: fermata.v1.IUpdateTopicRequest, callback: fermata.v1.Admin.UpdateTopicCallback): void;
              (request: fermata.v1.IUpdateTopicRequest): Promise<fermata.v1.UpdateTopicResponse>;
              readonly name: "UpdateTopic";
              readonly path: "/fermata.v1.Admin/UpdateTopic";
              readonly requestType: "UpdateTopicRequest";
              readonly responseType: "UpdateTopicResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type DeleteTopicCallback = (error: (Error|null), response?: fermata.v1.DeleteTopicResponse) => void;
            type DeleteTopic = {
              (request: fermata.v1.IDeleteTopicRequest, callback: fermata.v1.Admin.DeleteTopicCallback): void;
              (request: fermata.v1.IDeleteTopicRequest): Promise<fermata.v1.DeleteTopicResponse>;
              readonly name: "DeleteTopic";
              readonly path: "/fermata.v1.Admin/DeleteTopic";
              readonly requestType: "DeleteTopicRequest";
              readonly responseType: "DeleteTopicResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type ListTopicsCallback = (error: (Error|null), response?: fermata.v1.ListTopicsResponse) => void;
            type ListTopics = {
              (request: fermata.v1.IListTopicsRequest, callback: fermata.v1.Admin.ListTopicsCallback): void;
              (request: fermata.v1.IListTopicsRequest): Promise<fermata.v1.ListTopicsResponse>;
              readonly name: "ListTopics";
              readonly path: "/fermata.v1.Admin/ListTopics";
              readonly requestType: "ListTopicsRequest";
              readonly responseType: "ListTopicsResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type GetTopicStatsCallback = (error: (Error|null), response?: fermata.v1.GetTopicStatsResponse) => void;
            type GetTopicStats = {
              (request: fermata.v1.IGetTopicStatsRequest, callback: fermata.v1.Admin.GetTopicStatsCallback): void;
              (request: fermata.v1.IGetTopicStatsRequest): Promise<fermata.v1.GetTopicStatsResponse>;
              readonly name: "GetTopicStats";
              readonly path: "/fermata.v1.Admin/GetTopicStats";
              readonly requestType: "GetTopicStatsRequest";
              readonly responseType: "GetTopicStatsResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type CreateGroupCallback = (error: (Error|null), response?: fermata.v1.CreateGroupResponse) => void;
            type CreateGroup = {
              (request: fermata.v1.ICreateGroupRequest, callback: fermata.v1.Admin.CreateGroupCallback): void;
              (request: fermata.v1.ICreateGroupRequest): Promise<fermata.v1.CreateGroupResponse>;
              readonly name: "CreateGroup";
              readonly path: "/fermata.v1.Admin/CreateGroup";
              readonly requestType: "CreateGroupRequest";
              readonly responseType: "CreateGroupResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type UpdateGroupCallback = (error: (Error|null), response?: fermata.v1.UpdateGroupResponse) => void;
            type UpdateGroup = {
              (request: fermata.v1.IUpdateGroupRequest, callback: fermata.v1.Admin.UpdateGroupCallback): void;
              (request: fermata.v1.IUpdateGroupRequest): Promise<fermata.v1.UpdateGroupResponse>;
              readonly name: "UpdateGroup";
              readonly path: "/fermata.v1.Admin/UpdateGroup";
              readonly requestType: "UpdateGroupRequest";
              readonly responseType: "UpdateGroupResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type DeleteGroupCallback = (error: (Error|null), response?: fermata.v1.DeleteGroupResponse) => void;
            type DeleteGroup = {
              (request: fermata.v1.IDeleteGroupRequest, callback: fermata.v1.Admin.DeleteGroupCallback): void;
              (request: fermata.v1.IDeleteGroupRequest): Promise<fermata.v1.DeleteGroupResponse>;
              readonly name: "DeleteGroup";
              readonly path: "/fermata.v1.Admin/DeleteGroup";
              readonly requestType: "DeleteGroupRequest";
              readonly responseType: "DeleteGroupResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type TestPushCallback = (error: (Error|null), response?: fermata.v1.TestPushResponse) => void;
            type TestPush = {
              (request: fermata.v1.ITestPushRequest, callback: fermata.v1.Admin.TestPushCallback): void;
              (request: fermata.v1.ITestPushRequest): Promise<fermata.v1.TestPushResponse>;
              readonly name: "TestPush";
              readonly path: "/fermata.v1.Admin/TestPush";
              readonly requestType: "TestPushRequest";
              readonly responseType: "TestPushResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
        }

        enum ExpiryAction {
            EXPIRY_ACTION_UNSPECIFIED = 0,
            EXPIRY_ACTION_DROP = 1,
            EXPIRY_ACTION_DEAD_LETTER = 2
        }

        enum Ordering {
            ORDERING_UNSPECIFIED = 0,
            ORDERING_NONE = 1,
            ORDERING_KEY = 2
        }

        enum DeadlineAction {
            DEADLINE_ACTION_UNSPECIFIED = 0,
            DEADLINE_ACTION_DEAD_LETTER = 1,
            DEADLINE_ACTION_DROP = 2
        }

        interface IGroupSettings extends fermata.v1.GroupSettings.$Properties {
        }

        class GroupSettings {
            constructor(properties?: fermata.v1.GroupSettings.$Properties);
            $unknowns?: Uint8Array[];
            maxDeliveriesPerSecond: number;
            burst: number;
            maxInFlight: number;
            ordering: fermata.v1.Ordering;
            paused: boolean;
            push?: (fermata.v1.PushSettings.$Properties|null);
            static create(properties: fermata.v1.GroupSettings.$Shape): fermata.v1.GroupSettings & fermata.v1.GroupSettings.$Shape;
            static create(properties?: fermata.v1.GroupSettings.$Properties): fermata.v1.GroupSettings;
            static encode(message: fermata.v1.GroupSettings.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GroupSettings & fermata.v1.GroupSettings.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GroupSettings {
            interface $Properties {
                maxDeliveriesPerSecond?: (number|null);
                burst?: (number|null);
                maxInFlight?: (number|null);
                ordering?: (fermata.v1.Ordering|null);
                paused?: (boolean|null);
                push?: (fermata.v1.PushSettings.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GroupSettings.$Properties;
        }

        interface IPushSettings extends fermata.v1.PushSettings.$Properties {
        }

        class PushSettings {
            constructor(properties?: fermata.v1.PushSettings.$Properties);
            $unknowns?: Uint8Array[];
            endpoint: string;
            timeoutMs: number;
            concurrency: number;
            backoffInitialMs: number;
            backoffMultiplier: number;
            backoffMaxMs: number;
            headers: { [k: string]: string };
            secretFile: string;
            caFile: string;
            static create(properties: fermata.v1.PushSettings.$Shape): fermata.v1.PushSettings & fermata.v1.PushSettings.$Shape;
            static create(properties?: fermata.v1.PushSettings.$Properties): fermata.v1.PushSettings;
            static encode(message: fermata.v1.PushSettings.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PushSettings & fermata.v1.PushSettings.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PushSettings {
            interface $Properties {
                endpoint?: (string|null);
                timeoutMs?: (number|null);
                concurrency?: (number|null);
                backoffInitialMs?: (number|null);
                backoffMultiplier?: (number|null);
                backoffMaxMs?: (number|null);
                headers?: ({ [k: string]: string }|null);
                secretFile?: (string|null);
                caFile?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PushSettings.$Properties;
        }

        interface ITestPushRequest extends fermata.v1.TestPushRequest.$Properties {
        }

        class TestPushRequest {
            constructor(properties?: fermata.v1.TestPushRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            static create(properties: fermata.v1.TestPushRequest.$Shape): fermata.v1.TestPushRequest & fermata.v1.TestPushRequest.$Shape;
            static create(properties?: fermata.v1.TestPushRequest.$Properties): fermata.v1.TestPushRequest;
            static encode(message: fermata.v1.TestPushRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TestPushRequest & fermata.v1.TestPushRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TestPushRequest {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TestPushRequest.$Properties;
        }

        interface ITestPushResponse extends fermata.v1.TestPushResponse.$Properties {
        }

        class TestPushResponse {
            constructor(properties?: fermata.v1.TestPushResponse.$Properties);
            $unknowns?: Uint8Array[];
            status: number;
            body: string;
            latencyMs: Long;
            error: string;
            signature: string;
            static create(properties: fermata.v1.TestPushResponse.$Shape): fermata.v1.TestPushResponse & fermata.v1.TestPushResponse.$Shape;
            static create(properties?: fermata.v1.TestPushResponse.$Properties): fermata.v1.TestPushResponse;
            static encode(message: fermata.v1.TestPushResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TestPushResponse & fermata.v1.TestPushResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TestPushResponse {
            interface $Properties {
                status?: (number|null);
                body?: (string|null);
                latencyMs?: (Long|null);
                error?: (string|null);
                signature?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TestPushResponse.$Properties;
        }

        interface ITopicSettings extends fermata.v1.TopicSettings.$Properties {
        }

        class TopicSettings {
            constructor(properties?: fermata.v1.TopicSettings.$Properties);
            $unknowns?: Uint8Array[];
            maxAttempts: number;
            defaultLeaseMs: Long;
            deadLetterTopic: string;
            expiryAction: fermata.v1.ExpiryAction;
            timeBucketMs: Long;
            dedupWindowMs: Long;
            deadLetterAuthorizedBy: string;
            ordering: fermata.v1.Ordering;
            orderingKeyFromKey: boolean;
            maxLatenessMs: Long;
            deadlineAction: fermata.v1.DeadlineAction;
            paused: boolean;
            static create(properties: fermata.v1.TopicSettings.$Shape): fermata.v1.TopicSettings & fermata.v1.TopicSettings.$Shape;
            static create(properties?: fermata.v1.TopicSettings.$Properties): fermata.v1.TopicSettings;
            static encode(message: fermata.v1.TopicSettings.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TopicSettings & fermata.v1.TopicSettings.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TopicSettings {
            interface $Properties {
                maxAttempts?: (number|null);
                defaultLeaseMs?: (Long|null);
                deadLetterTopic?: (string|null);
                expiryAction?: (fermata.v1.ExpiryAction|null);
                timeBucketMs?: (Long|null);
                dedupWindowMs?: (Long|null);
                deadLetterAuthorizedBy?: (string|null);
                ordering?: (fermata.v1.Ordering|null);
                orderingKeyFromKey?: (boolean|null);
                maxLatenessMs?: (Long|null);
                deadlineAction?: (fermata.v1.DeadlineAction|null);
                paused?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TopicSettings.$Properties;
        }

        interface ITopic extends fermata.v1.Topic.$Properties {
        }

        class Topic {
            constructor(properties?: fermata.v1.Topic.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            settings?: (fermata.v1.TopicSettings.$Properties|null);
            groups: string[];
            createdAtMs: Long;
            deleting: boolean;
            groupSettings: { [k: string]: fermata.v1.GroupSettings.$Properties };
            static create(properties: fermata.v1.Topic.$Shape): fermata.v1.Topic & fermata.v1.Topic.$Shape;
            static create(properties?: fermata.v1.Topic.$Properties): fermata.v1.Topic;
            static encode(message: fermata.v1.Topic.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Topic & fermata.v1.Topic.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Topic {
            interface $Properties {
                name?: (string|null);
                settings?: (fermata.v1.TopicSettings.$Properties|null);
                groups?: (string[]|null);
                createdAtMs?: (Long|null);
                deleting?: (boolean|null);
                groupSettings?: ({ [k: string]: fermata.v1.GroupSettings.$Properties }|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Topic.$Properties;
        }

        interface ICreateTopicRequest extends fermata.v1.CreateTopicRequest.$Properties {
        }

        class CreateTopicRequest {
            constructor(properties?: fermata.v1.CreateTopicRequest.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            settings?: (fermata.v1.TopicSettings.$Properties|null);
            static create(properties: fermata.v1.CreateTopicRequest.$Shape): fermata.v1.CreateTopicRequest & fermata.v1.CreateTopicRequest.$Shape;
            static create(properties?: fermata.v1.CreateTopicRequest.$Properties): fermata.v1.CreateTopicRequest;
            static encode(message: fermata.v1.CreateTopicRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CreateTopicRequest & fermata.v1.CreateTopicRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateTopicRequest {
            interface $Properties {
                name?: (string|null);
                settings?: (fermata.v1.TopicSettings.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CreateTopicRequest.$Properties;
        }

        interface ICreateTopicResponse extends fermata.v1.CreateTopicResponse.$Properties {
        }

        class CreateTopicResponse {
            constructor(properties?: fermata.v1.CreateTopicResponse.$Properties);
            $unknowns?: Uint8Array[];
            topic?: (fermata.v1.Topic.$Properties|null);
            static create(properties: fermata.v1.CreateTopicResponse.$Shape): fermata.v1.CreateTopicResponse & fermata.v1.CreateTopicResponse.$Shape;
            static create(properties?: fermata.v1.CreateTopicResponse.$Properties): fermata.v1.CreateTopicResponse;
            static encode(message: fermata.v1.CreateTopicResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CreateTopicResponse & fermata.v1.CreateTopicResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateTopicResponse {
            interface $Properties {
                topic?: (fermata.v1.Topic.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CreateTopicResponse.$Properties;
        }

        interface IUpdateTopicRequest extends fermata.v1.UpdateTopicRequest.$Properties {
        }

        class UpdateTopicRequest {
            constructor(properties?: fermata.v1.UpdateTopicRequest.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            settings?: (fermata.v1.TopicSettings.$Properties|null);
            updateMask: string[];
            static create(properties: fermata.v1.UpdateTopicRequest.$Shape): fermata.v1.UpdateTopicRequest & fermata.v1.UpdateTopicRequest.$Shape;
            static create(properties?: fermata.v1.UpdateTopicRequest.$Properties): fermata.v1.UpdateTopicRequest;
            static encode(message: fermata.v1.UpdateTopicRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpdateTopicRequest & fermata.v1.UpdateTopicRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpdateTopicRequest {
            interface $Properties {
                name?: (string|null);
                settings?: (fermata.v1.TopicSettings.$Properties|null);
                updateMask?: (string[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpdateTopicRequest.$Properties;
        }

        interface IUpdateTopicResponse extends fermata.v1.UpdateTopicResponse.$Properties {
        }

        class UpdateTopicResponse {
            constructor(properties?: fermata.v1.UpdateTopicResponse.$Properties);
            $unknowns?: Uint8Array[];
            topic?: (fermata.v1.Topic.$Properties|null);
            static create(properties: fermata.v1.UpdateTopicResponse.$Shape): fermata.v1.UpdateTopicResponse & fermata.v1.UpdateTopicResponse.$Shape;
            static create(properties?: fermata.v1.UpdateTopicResponse.$Properties): fermata.v1.UpdateTopicResponse;
            static encode(message: fermata.v1.UpdateTopicResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpdateTopicResponse & fermata.v1.UpdateTopicResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpdateTopicResponse {
            interface $Properties {
                topic?: (fermata.v1.Topic.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpdateTopicResponse.$Properties;
        }

        interface IDeleteTopicRequest extends fermata.v1.DeleteTopicRequest.$Properties {
        }

        class DeleteTopicRequest {
            constructor(properties?: fermata.v1.DeleteTopicRequest.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            static create(properties: fermata.v1.DeleteTopicRequest.$Shape): fermata.v1.DeleteTopicRequest & fermata.v1.DeleteTopicRequest.$Shape;
            static create(properties?: fermata.v1.DeleteTopicRequest.$Properties): fermata.v1.DeleteTopicRequest;
            static encode(message: fermata.v1.DeleteTopicRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeleteTopicRequest & fermata.v1.DeleteTopicRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeleteTopicRequest {
            interface $Properties {
                name?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeleteTopicRequest.$Properties;
        }

        interface IDeleteTopicResponse extends fermata.v1.DeleteTopicResponse.$Properties {
        }

        class DeleteTopicResponse {
            constructor(properties?: fermata.v1.DeleteTopicResponse.$Properties);
            $unknowns?: Uint8Array[];
            removedMessages: Long;
            static create(properties: fermata.v1.DeleteTopicResponse.$Shape): fermata.v1.DeleteTopicResponse & fermata.v1.DeleteTopicResponse.$Shape;
            static create(properties?: fermata.v1.DeleteTopicResponse.$Properties): fermata.v1.DeleteTopicResponse;
            static encode(message: fermata.v1.DeleteTopicResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeleteTopicResponse & fermata.v1.DeleteTopicResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeleteTopicResponse {
            interface $Properties {
                removedMessages?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeleteTopicResponse.$Properties;
        }

        interface IListTopicsRequest extends fermata.v1.ListTopicsRequest.$Properties {
        }

        class ListTopicsRequest {
            constructor(properties?: fermata.v1.ListTopicsRequest.$Properties);
            $unknowns?: Uint8Array[];
            static create(properties: fermata.v1.ListTopicsRequest.$Shape): fermata.v1.ListTopicsRequest & fermata.v1.ListTopicsRequest.$Shape;
            static create(properties?: fermata.v1.ListTopicsRequest.$Properties): fermata.v1.ListTopicsRequest;
            static encode(message: fermata.v1.ListTopicsRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListTopicsRequest & fermata.v1.ListTopicsRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListTopicsRequest {
            interface $Properties {
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListTopicsRequest.$Properties;
        }

        interface IListTopicsResponse extends fermata.v1.ListTopicsResponse.$Properties {
        }

        class ListTopicsResponse {
            constructor(properties?: fermata.v1.ListTopicsResponse.$Properties);
            $unknowns?: Uint8Array[];
            topics: fermata.v1.Topic.$Properties[];
            static create(properties: fermata.v1.ListTopicsResponse.$Shape): fermata.v1.ListTopicsResponse & fermata.v1.ListTopicsResponse.$Shape;
            static create(properties?: fermata.v1.ListTopicsResponse.$Properties): fermata.v1.ListTopicsResponse;
            static encode(message: fermata.v1.ListTopicsResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListTopicsResponse & fermata.v1.ListTopicsResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListTopicsResponse {
            interface $Properties {
                topics?: (fermata.v1.Topic.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListTopicsResponse.$Properties;
        }

        interface IGroupStats extends fermata.v1.GroupStats.$Properties {
        }

        class GroupStats {
            constructor(properties?: fermata.v1.GroupStats.$Properties);
            $unknowns?: Uint8Array[];
            group: string;
            pending: Long;
            inFlight: Long;
            deadLettered: Long;
            nextDueMs: Long;
            settings?: (fermata.v1.GroupSettings.$Properties|null);
            paused: boolean;
            throttled: Long;
            push?: (fermata.v1.PushStats.$Properties|null);
            static create(properties: fermata.v1.GroupStats.$Shape): fermata.v1.GroupStats & fermata.v1.GroupStats.$Shape;
            static create(properties?: fermata.v1.GroupStats.$Properties): fermata.v1.GroupStats;
            static encode(message: fermata.v1.GroupStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GroupStats & fermata.v1.GroupStats.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GroupStats {
            interface $Properties {
                group?: (string|null);
                pending?: (Long|null);
                inFlight?: (Long|null);
                deadLettered?: (Long|null);
                nextDueMs?: (Long|null);
                settings?: (fermata.v1.GroupSettings.$Properties|null);
                paused?: (boolean|null);
                throttled?: (Long|null);
                push?: (fermata.v1.PushStats.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GroupStats.$Properties;
        }

        interface IPushStats extends fermata.v1.PushStats.$Properties {
        }

        class PushStats {
            constructor(properties?: fermata.v1.PushStats.$Properties);
            $unknowns?: Uint8Array[];
            requests: { [k: string]: Long };
            retries: Long;
            deadLetters: Long;
            blocked: string;
            static create(properties: fermata.v1.PushStats.$Shape): fermata.v1.PushStats & fermata.v1.PushStats.$Shape;
            static create(properties?: fermata.v1.PushStats.$Properties): fermata.v1.PushStats;
            static encode(message: fermata.v1.PushStats.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PushStats & fermata.v1.PushStats.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PushStats {
            interface $Properties {
                requests?: ({ [k: string]: Long }|null);
                retries?: (Long|null);
                deadLetters?: (Long|null);
                blocked?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PushStats.$Properties;
        }

        interface IGetTopicStatsRequest extends fermata.v1.GetTopicStatsRequest.$Properties {
        }

        class GetTopicStatsRequest {
            constructor(properties?: fermata.v1.GetTopicStatsRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            static create(properties: fermata.v1.GetTopicStatsRequest.$Shape): fermata.v1.GetTopicStatsRequest & fermata.v1.GetTopicStatsRequest.$Shape;
            static create(properties?: fermata.v1.GetTopicStatsRequest.$Properties): fermata.v1.GetTopicStatsRequest;
            static encode(message: fermata.v1.GetTopicStatsRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetTopicStatsRequest & fermata.v1.GetTopicStatsRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetTopicStatsRequest {
            interface $Properties {
                topic?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetTopicStatsRequest.$Properties;
        }

        interface IGetTopicStatsResponse extends fermata.v1.GetTopicStatsResponse.$Properties {
        }

        class GetTopicStatsResponse {
            constructor(properties?: fermata.v1.GetTopicStatsResponse.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            groups: fermata.v1.GroupStats.$Properties[];
            deletions: fermata.v1.DeletionProgress.$Properties[];
            static create(properties: fermata.v1.GetTopicStatsResponse.$Shape): fermata.v1.GetTopicStatsResponse & fermata.v1.GetTopicStatsResponse.$Shape;
            static create(properties?: fermata.v1.GetTopicStatsResponse.$Properties): fermata.v1.GetTopicStatsResponse;
            static encode(message: fermata.v1.GetTopicStatsResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetTopicStatsResponse & fermata.v1.GetTopicStatsResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetTopicStatsResponse {
            interface $Properties {
                topic?: (string|null);
                groups?: (fermata.v1.GroupStats.$Properties[]|null);
                deletions?: (fermata.v1.DeletionProgress.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetTopicStatsResponse.$Properties;
        }

        interface IDeletionProgress extends fermata.v1.DeletionProgress.$Properties {
        }

        class DeletionProgress {
            constructor(properties?: fermata.v1.DeletionProgress.$Properties);
            $unknowns?: Uint8Array[];
            group: string;
            startedAtMs: Long;
            entriesAtStart: Long;
            removedEntries: Long;
            removedRecords: Long;
            static create(properties: fermata.v1.DeletionProgress.$Shape): fermata.v1.DeletionProgress & fermata.v1.DeletionProgress.$Shape;
            static create(properties?: fermata.v1.DeletionProgress.$Properties): fermata.v1.DeletionProgress;
            static encode(message: fermata.v1.DeletionProgress.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeletionProgress & fermata.v1.DeletionProgress.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeletionProgress {
            interface $Properties {
                group?: (string|null);
                startedAtMs?: (Long|null);
                entriesAtStart?: (Long|null);
                removedEntries?: (Long|null);
                removedRecords?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeletionProgress.$Properties;
        }

        interface ICreateGroupRequest extends fermata.v1.CreateGroupRequest.$Properties {
        }

        class CreateGroupRequest {
            constructor(properties?: fermata.v1.CreateGroupRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            settings?: (fermata.v1.GroupSettings.$Properties|null);
            static create(properties: fermata.v1.CreateGroupRequest.$Shape): fermata.v1.CreateGroupRequest & fermata.v1.CreateGroupRequest.$Shape;
            static create(properties?: fermata.v1.CreateGroupRequest.$Properties): fermata.v1.CreateGroupRequest;
            static encode(message: fermata.v1.CreateGroupRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CreateGroupRequest & fermata.v1.CreateGroupRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateGroupRequest {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                settings?: (fermata.v1.GroupSettings.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CreateGroupRequest.$Properties;
        }

        interface ICreateGroupResponse extends fermata.v1.CreateGroupResponse.$Properties {
        }

        class CreateGroupResponse {
            constructor(properties?: fermata.v1.CreateGroupResponse.$Properties);
            $unknowns?: Uint8Array[];
            topic?: (fermata.v1.Topic.$Properties|null);
            static create(properties: fermata.v1.CreateGroupResponse.$Shape): fermata.v1.CreateGroupResponse & fermata.v1.CreateGroupResponse.$Shape;
            static create(properties?: fermata.v1.CreateGroupResponse.$Properties): fermata.v1.CreateGroupResponse;
            static encode(message: fermata.v1.CreateGroupResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CreateGroupResponse & fermata.v1.CreateGroupResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateGroupResponse {
            interface $Properties {
                topic?: (fermata.v1.Topic.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CreateGroupResponse.$Properties;
        }

        interface IUpdateGroupRequest extends fermata.v1.UpdateGroupRequest.$Properties {
        }

        class UpdateGroupRequest {
            constructor(properties?: fermata.v1.UpdateGroupRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            settings?: (fermata.v1.GroupSettings.$Properties|null);
            updateMask: string[];
            static create(properties: fermata.v1.UpdateGroupRequest.$Shape): fermata.v1.UpdateGroupRequest & fermata.v1.UpdateGroupRequest.$Shape;
            static create(properties?: fermata.v1.UpdateGroupRequest.$Properties): fermata.v1.UpdateGroupRequest;
            static encode(message: fermata.v1.UpdateGroupRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpdateGroupRequest & fermata.v1.UpdateGroupRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpdateGroupRequest {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                settings?: (fermata.v1.GroupSettings.$Properties|null);
                updateMask?: (string[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpdateGroupRequest.$Properties;
        }

        interface IUpdateGroupResponse extends fermata.v1.UpdateGroupResponse.$Properties {
        }

        class UpdateGroupResponse {
            constructor(properties?: fermata.v1.UpdateGroupResponse.$Properties);
            $unknowns?: Uint8Array[];
            topic?: (fermata.v1.Topic.$Properties|null);
            static create(properties: fermata.v1.UpdateGroupResponse.$Shape): fermata.v1.UpdateGroupResponse & fermata.v1.UpdateGroupResponse.$Shape;
            static create(properties?: fermata.v1.UpdateGroupResponse.$Properties): fermata.v1.UpdateGroupResponse;
            static encode(message: fermata.v1.UpdateGroupResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpdateGroupResponse & fermata.v1.UpdateGroupResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpdateGroupResponse {
            interface $Properties {
                topic?: (fermata.v1.Topic.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpdateGroupResponse.$Properties;
        }

        interface IDeleteGroupRequest extends fermata.v1.DeleteGroupRequest.$Properties {
        }

        class DeleteGroupRequest {
            constructor(properties?: fermata.v1.DeleteGroupRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            static create(properties: fermata.v1.DeleteGroupRequest.$Shape): fermata.v1.DeleteGroupRequest & fermata.v1.DeleteGroupRequest.$Shape;
            static create(properties?: fermata.v1.DeleteGroupRequest.$Properties): fermata.v1.DeleteGroupRequest;
            static encode(message: fermata.v1.DeleteGroupRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeleteGroupRequest & fermata.v1.DeleteGroupRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeleteGroupRequest {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeleteGroupRequest.$Properties;
        }

        interface IDeleteGroupResponse extends fermata.v1.DeleteGroupResponse.$Properties {
        }

        class DeleteGroupResponse {
            constructor(properties?: fermata.v1.DeleteGroupResponse.$Properties);
            $unknowns?: Uint8Array[];
            removedMessages: Long;
            static create(properties: fermata.v1.DeleteGroupResponse.$Shape): fermata.v1.DeleteGroupResponse & fermata.v1.DeleteGroupResponse.$Shape;
            static create(properties?: fermata.v1.DeleteGroupResponse.$Properties): fermata.v1.DeleteGroupResponse;
            static encode(message: fermata.v1.DeleteGroupResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeleteGroupResponse & fermata.v1.DeleteGroupResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeleteGroupResponse {
            interface $Properties {
                removedMessages?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeleteGroupResponse.$Properties;
        }

        class Backup extends $protobuf.rpc.Service {
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): Backup;
            takeBackup: fermata.v1.Backup.TakeBackup;
        }

        namespace Backup {
            type TakeBackupCallback = (error: (Error|null), response?: fermata.v1.BackupChunk) => void;
            type TakeBackup = {
              (request: fermata.v1.ITakeBackupRequest, callback: fermata.v1.Backup.TakeBackupCallback): void;
              (request: fermata.v1.ITakeBackupRequest): Promise<fermata.v1.BackupChunk>;
              readonly name: "TakeBackup";
              readonly path: "/fermata.v1.Backup/TakeBackup";
              readonly requestType: "TakeBackupRequest";
              readonly responseType: "BackupChunk";
              readonly requestStream: undefined;
              readonly responseStream: true;
            };
        }

        interface ITakeBackupRequest extends fermata.v1.TakeBackupRequest.$Properties {
        }

        class TakeBackupRequest {
            constructor(properties?: fermata.v1.TakeBackupRequest.$Properties);
            $unknowns?: Uint8Array[];
            static create(properties: fermata.v1.TakeBackupRequest.$Shape): fermata.v1.TakeBackupRequest & fermata.v1.TakeBackupRequest.$Shape;
            static create(properties?: fermata.v1.TakeBackupRequest.$Properties): fermata.v1.TakeBackupRequest;
            static encode(message: fermata.v1.TakeBackupRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TakeBackupRequest & fermata.v1.TakeBackupRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TakeBackupRequest {
            interface $Properties {
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TakeBackupRequest.$Properties;
        }

        interface IBackupHeader extends fermata.v1.BackupHeader.$Properties {
        }

        class BackupHeader {
            constructor(properties?: fermata.v1.BackupHeader.$Properties);
            $unknowns?: Uint8Array[];
            formatVersion: number;
            clusterId: string;
            nodeId: string;
            term: Long;
            appliedIndex: Long;
            takenAtMs: Long;
            queueEntries: Long;
            static create(properties: fermata.v1.BackupHeader.$Shape): fermata.v1.BackupHeader & fermata.v1.BackupHeader.$Shape;
            static create(properties?: fermata.v1.BackupHeader.$Properties): fermata.v1.BackupHeader;
            static encode(message: fermata.v1.BackupHeader.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.BackupHeader & fermata.v1.BackupHeader.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace BackupHeader {
            interface $Properties {
                formatVersion?: (number|null);
                clusterId?: (string|null);
                nodeId?: (string|null);
                term?: (Long|null);
                appliedIndex?: (Long|null);
                takenAtMs?: (Long|null);
                queueEntries?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.BackupHeader.$Properties;
        }

        interface IBackupData extends fermata.v1.BackupData.$Properties {
        }

        class BackupData {
            constructor(properties?: fermata.v1.BackupData.$Properties);
            $unknowns?: Uint8Array[];
            data: Uint8Array;
            records: Long;
            messages: Long;
            static create(properties: fermata.v1.BackupData.$Shape): fermata.v1.BackupData & fermata.v1.BackupData.$Shape;
            static create(properties?: fermata.v1.BackupData.$Properties): fermata.v1.BackupData;
            static encode(message: fermata.v1.BackupData.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.BackupData & fermata.v1.BackupData.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace BackupData {
            interface $Properties {
                data?: (Uint8Array|null);
                records?: (Long|null);
                messages?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.BackupData.$Properties;
        }

        interface IBackupTrailer extends fermata.v1.BackupTrailer.$Properties {
        }

        class BackupTrailer {
            constructor(properties?: fermata.v1.BackupTrailer.$Properties);
            $unknowns?: Uint8Array[];
            dataBytes: Long;
            records: Long;
            messages: Long;
            sha256: Uint8Array;
            static create(properties: fermata.v1.BackupTrailer.$Shape): fermata.v1.BackupTrailer & fermata.v1.BackupTrailer.$Shape;
            static create(properties?: fermata.v1.BackupTrailer.$Properties): fermata.v1.BackupTrailer;
            static encode(message: fermata.v1.BackupTrailer.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.BackupTrailer & fermata.v1.BackupTrailer.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace BackupTrailer {
            interface $Properties {
                dataBytes?: (Long|null);
                records?: (Long|null);
                messages?: (Long|null);
                sha256?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.BackupTrailer.$Properties;
        }

        interface IBackupChunk extends fermata.v1.BackupChunk.$Properties {
        }

        class BackupChunk {
            constructor(properties?: fermata.v1.BackupChunk.$Properties);
            $unknowns?: Uint8Array[];
            header?: (fermata.v1.BackupHeader.$Properties|null);
            data?: (fermata.v1.BackupData.$Properties|null);
            trailer?: (fermata.v1.BackupTrailer.$Properties|null);
            kind?: ("header"|"data"|"trailer");
            static create(properties: fermata.v1.BackupChunk.$Shape): fermata.v1.BackupChunk & fermata.v1.BackupChunk.$Shape;
            static create(properties?: fermata.v1.BackupChunk.$Properties): fermata.v1.BackupChunk;
            static encode(message: fermata.v1.BackupChunk.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.BackupChunk & fermata.v1.BackupChunk.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace BackupChunk {
            interface $Properties {
                header?: (fermata.v1.BackupHeader.$Properties|null);
                data?: (fermata.v1.BackupData.$Properties|null);
                trailer?: (fermata.v1.BackupTrailer.$Properties|null);
                kind?: ("header"|"data"|"trailer");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              header?: fermata.v1.BackupHeader.$Shape|null;
              data?: fermata.v1.BackupData.$Shape|null;
              trailer?: fermata.v1.BackupTrailer.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ kind?: undefined; header?: null; data?: null; trailer?: null }|{ kind?: "header"; header: fermata.v1.BackupHeader.$Shape; data?: null; trailer?: null }|{ kind?: "data"; header?: null; data: fermata.v1.BackupData.$Shape; trailer?: null }|{ kind?: "trailer"; header?: null; data?: null; trailer: fermata.v1.BackupTrailer.$Shape })
            );
        }

        class Broker extends $protobuf.rpc.Service {
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): Broker;
            publish: fermata.v1.Broker.Publish;
            publishStream: fermata.v1.Broker.PublishStream;
            consume: fermata.v1.Broker.Consume;
            ack: fermata.v1.Broker.Ack;
            nack: fermata.v1.Broker.Nack;
            extend: fermata.v1.Broker.Extend;
            cancel: fermata.v1.Broker.Cancel;
            reschedule: fermata.v1.Broker.Reschedule;
            getMessage: fermata.v1.Broker.GetMessage;
            listMessages: fermata.v1.Broker.ListMessages;
            getDueForecast: fermata.v1.Broker.GetDueForecast;
            redrive: fermata.v1.Broker.Redrive;
        }

        namespace Broker {
            type PublishCallback = (error: (Error|null), response?: fermata.v1.PublishResponse) => void;
            type Publish = {
              (request: fermata.v1.IPublishRequest, callback: fermata.v1.Broker.PublishCallback): void;
              (request: fermata.v1.IPublishRequest): Promise<fermata.v1.PublishResponse>;
              readonly name: "Publish";
              readonly path: "/fermata.v1.Broker/Publish";
              readonly requestType: "PublishRequest";
              readonly responseType: "PublishResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type PublishStreamCallback = (error: (Error|null), response?: fermata.v1.PublishStreamResponse) => void;
            type PublishStream = {
              (request: fermata.v1.IPublishStreamRequest, callback: fermata.v1.Broker.PublishStreamCallback): void;
              (request: fermata.v1.IPublishStreamRequest): Promise<fermata.v1.PublishStreamResponse>;
              readonly name: "PublishStream";
              readonly path: "/fermata.v1.Broker/PublishStream";
              readonly requestType: "PublishStreamRequest";
              readonly responseType: "PublishStreamResponse";
              readonly requestStream: true;
              readonly responseStream: true;
            };
            type ConsumeCallback = (error: (Error|null), response?: fermata.v1.ConsumeResponse) => void;
            type Consume = {
              (request: fermata.v1.IConsumeRequest, callback: fermata.v1.Broker.ConsumeCallback): void;
              (request: fermata.v1.IConsumeRequest): Promise<fermata.v1.ConsumeResponse>;
              readonly name: "Consume";
              readonly path: "/fermata.v1.Broker/Consume";
              readonly requestType: "ConsumeRequest";
              readonly responseType: "ConsumeResponse";
              readonly requestStream: true;
              readonly responseStream: true;
            };
            type AckCallback = (error: (Error|null), response?: fermata.v1.AckResponse) => void;
            type Ack = {
              (request: fermata.v1.IAckRequest, callback: fermata.v1.Broker.AckCallback): void;
              (request: fermata.v1.IAckRequest): Promise<fermata.v1.AckResponse>;
              readonly name: "Ack";
              readonly path: "/fermata.v1.Broker/Ack";
              readonly requestType: "AckRequest";
              readonly responseType: "AckResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type NackCallback = (error: (Error|null), response?: fermata.v1.NackResponse) => void;
            type Nack = {
              (request: fermata.v1.INackRequest, callback: fermata.v1.Broker.NackCallback): void;
              (request: fermata.v1.INackRequest): Promise<fermata.v1.NackResponse>;
              readonly name: "Nack";
              readonly path: "/fermata.v1.Broker/Nack";
              readonly requestType: "NackRequest";
              readonly responseType: "NackResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type ExtendCallback = (error: (Error|null), response?: fermata.v1.ExtendResponse) => void;
            type Extend = {
              (request: fermata.v1.IExtendRequest, callback: fermata.v1.Broker.ExtendCallback): void;
              (request: fermata.v1.IExtendRequest): Promise<fermata.v1.ExtendResponse>;
              readonly name: "Extend";
              readonly path: "/fermata.v1.Broker/Extend";
              readonly requestType: "ExtendRequest";
              readonly responseType: "ExtendResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type CancelCallback = (error: (Error|null), response?: fermata.v1.CancelResponse) => void;
            type Cancel = {
              (request: fermata.v1.ICancelRequest, callback: fermata.v1.Broker.CancelCallback): void;
              (request: fermata.v1.ICancelRequest): Promise<fermata.v1.CancelResponse>;
              readonly name: "Cancel";
              readonly path: "/fermata.v1.Broker/Cancel";
              readonly requestType: "CancelRequest";
              readonly responseType: "CancelResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type RescheduleCallback = (error: (Error|null), response?: fermata.v1.RescheduleResponse) => void;
            type Reschedule = {
              (request: fermata.v1.IRescheduleRequest, callback: fermata.v1.Broker.RescheduleCallback): void;
              (request: fermata.v1.IRescheduleRequest): Promise<fermata.v1.RescheduleResponse>;
              readonly name: "Reschedule";
              readonly path: "/fermata.v1.Broker/Reschedule";
              readonly requestType: "RescheduleRequest";
              readonly responseType: "RescheduleResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type GetMessageCallback = (error: (Error|null), response?: fermata.v1.GetMessageResponse) => void;
            type GetMessage = {
              (request: fermata.v1.IGetMessageRequest, callback: fermata.v1.Broker.GetMessageCallback): void;
              (request: fermata.v1.IGetMessageRequest): Promise<fermata.v1.GetMessageResponse>;
              readonly name: "GetMessage";
              readonly path: "/fermata.v1.Broker/GetMessage";
              readonly requestType: "GetMessageRequest";
              readonly responseType: "GetMessageResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type ListMessagesCallback = (error: (Error|null), response?: fermata.v1.ListMessagesResponse) => void;
            type ListMessages = {
              (request: fermata.v1.IListMessagesRequest, callback: fermata.v1.Broker.ListMessagesCallback): void;
              (request: fermata.v1.IListMessagesRequest): Promise<fermata.v1.ListMessagesResponse>;
              readonly name: "ListMessages";
              readonly path: "/fermata.v1.Broker/ListMessages";
              readonly requestType: "ListMessagesRequest";
              readonly responseType: "ListMessagesResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type GetDueForecastCallback = (error: (Error|null), response?: fermata.v1.GetDueForecastResponse) => void;
            type GetDueForecast = {
              (request: fermata.v1.IGetDueForecastRequest, callback: fermata.v1.Broker.GetDueForecastCallback): void;
              (request: fermata.v1.IGetDueForecastRequest): Promise<fermata.v1.GetDueForecastResponse>;
              readonly name: "GetDueForecast";
              readonly path: "/fermata.v1.Broker/GetDueForecast";
              readonly requestType: "GetDueForecastRequest";
              readonly responseType: "GetDueForecastResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type RedriveCallback = (error: (Error|null), response?: fermata.v1.RedriveResponse) => void;
            type Redrive = {
              (request: fermata.v1.IRedriveRequest, callback: fermata.v1.Broker.RedriveCallback): void;
              (request: fermata.v1.IRedriveRequest): Promise<fermata.v1.RedriveResponse>;
              readonly name: "Redrive";
              readonly path: "/fermata.v1.Broker/Redrive";
              readonly requestType: "RedriveRequest";
              readonly responseType: "RedriveResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
        }

        interface IPublishMessage extends fermata.v1.PublishMessage.$Properties {
        }

        class PublishMessage {
            constructor(properties?: fermata.v1.PublishMessage.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            payload: Uint8Array;
            headers: { [k: string]: string };
            delayMs?: (Long|null);
            deliverAtMs?: (Long|null);
            ttlMs: Long;
            key: string;
            orderingKey: string;
            deliverBeforeMs: Long;
            schedule?: ("delayMs"|"deliverAtMs");
            static create(properties: fermata.v1.PublishMessage.$Shape): fermata.v1.PublishMessage & fermata.v1.PublishMessage.$Shape;
            static create(properties?: fermata.v1.PublishMessage.$Properties): fermata.v1.PublishMessage;
            static encode(message: fermata.v1.PublishMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishMessage & fermata.v1.PublishMessage.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishMessage {
            interface $Properties {
                topic?: (string|null);
                payload?: (Uint8Array|null);
                headers?: ({ [k: string]: string }|null);
                delayMs?: (Long|null);
                deliverAtMs?: (Long|null);
                ttlMs?: (Long|null);
                key?: (string|null);
                orderingKey?: (string|null);
                deliverBeforeMs?: (Long|null);
                schedule?: ("delayMs"|"deliverAtMs");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              topic?: string|null;
              payload?: Uint8Array|null;
              headers?: { [k: string]: string }|null;
              delayMs?: Long|null;
              deliverAtMs?: Long|null;
              ttlMs?: Long|null;
              key?: string|null;
              orderingKey?: string|null;
              deliverBeforeMs?: Long|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ schedule?: undefined; delayMs?: null; deliverAtMs?: null }|{ schedule?: "delayMs"; delayMs: Long; deliverAtMs?: null }|{ schedule?: "deliverAtMs"; delayMs?: null; deliverAtMs: Long })
            );
        }

        interface IPublishRequest extends fermata.v1.PublishRequest.$Properties {
        }

        class PublishRequest {
            constructor(properties?: fermata.v1.PublishRequest.$Properties);
            $unknowns?: Uint8Array[];
            messages: fermata.v1.PublishMessage.$Properties[];
            durability: fermata.v1.Durability;
            idempotencyKey: string;
            static create(properties: fermata.v1.PublishRequest.$Shape): fermata.v1.PublishRequest & fermata.v1.PublishRequest.$Shape;
            static create(properties?: fermata.v1.PublishRequest.$Properties): fermata.v1.PublishRequest;
            static encode(message: fermata.v1.PublishRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishRequest & fermata.v1.PublishRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishRequest {
            interface $Properties {
                messages?: (fermata.v1.PublishMessage.$Properties[]|null);
                durability?: (fermata.v1.Durability|null);
                idempotencyKey?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              messages?: fermata.v1.PublishMessage.$Shape[]|null;
              durability?: fermata.v1.Durability|null;
              idempotencyKey?: string|null;
              $unknowns?: Uint8Array[];
            };
        }

        interface IPublishResult extends fermata.v1.PublishResult.$Properties {
        }

        class PublishResult {
            constructor(properties?: fermata.v1.PublishResult.$Properties);
            $unknowns?: Uint8Array[];
            id: Long;
            deduplicated: boolean;
            dueAtMs: Long;
            static create(properties: fermata.v1.PublishResult.$Shape): fermata.v1.PublishResult & fermata.v1.PublishResult.$Shape;
            static create(properties?: fermata.v1.PublishResult.$Properties): fermata.v1.PublishResult;
            static encode(message: fermata.v1.PublishResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishResult & fermata.v1.PublishResult.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishResult {
            interface $Properties {
                id?: (Long|null);
                deduplicated?: (boolean|null);
                dueAtMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PublishResult.$Properties;
        }

        interface IPublishResponse extends fermata.v1.PublishResponse.$Properties {
        }

        class PublishResponse {
            constructor(properties?: fermata.v1.PublishResponse.$Properties);
            $unknowns?: Uint8Array[];
            results: fermata.v1.PublishResult.$Properties[];
            static create(properties: fermata.v1.PublishResponse.$Shape): fermata.v1.PublishResponse & fermata.v1.PublishResponse.$Shape;
            static create(properties?: fermata.v1.PublishResponse.$Properties): fermata.v1.PublishResponse;
            static encode(message: fermata.v1.PublishResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishResponse & fermata.v1.PublishResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishResponse {
            interface $Properties {
                results?: (fermata.v1.PublishResult.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PublishResponse.$Properties;
        }

        interface IPublishStreamRequest extends fermata.v1.PublishStreamRequest.$Properties {
        }

        class PublishStreamRequest {
            constructor(properties?: fermata.v1.PublishStreamRequest.$Properties);
            $unknowns?: Uint8Array[];
            sequence: Long;
            messages: fermata.v1.PublishMessage.$Properties[];
            durability: fermata.v1.Durability;
            idempotencyKey: string;
            static create(properties: fermata.v1.PublishStreamRequest.$Shape): fermata.v1.PublishStreamRequest & fermata.v1.PublishStreamRequest.$Shape;
            static create(properties?: fermata.v1.PublishStreamRequest.$Properties): fermata.v1.PublishStreamRequest;
            static encode(message: fermata.v1.PublishStreamRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishStreamRequest & fermata.v1.PublishStreamRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishStreamRequest {
            interface $Properties {
                sequence?: (Long|null);
                messages?: (fermata.v1.PublishMessage.$Properties[]|null);
                durability?: (fermata.v1.Durability|null);
                idempotencyKey?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              sequence?: Long|null;
              messages?: fermata.v1.PublishMessage.$Shape[]|null;
              durability?: fermata.v1.Durability|null;
              idempotencyKey?: string|null;
              $unknowns?: Uint8Array[];
            };
        }

        interface IPublishStreamResponse extends fermata.v1.PublishStreamResponse.$Properties {
        }

        class PublishStreamResponse {
            constructor(properties?: fermata.v1.PublishStreamResponse.$Properties);
            $unknowns?: Uint8Array[];
            sequence: Long;
            results: fermata.v1.PublishResult.$Properties[];
            error?: (fermata.v1.ErrorStatus.$Properties|null);
            static create(properties: fermata.v1.PublishStreamResponse.$Shape): fermata.v1.PublishStreamResponse & fermata.v1.PublishStreamResponse.$Shape;
            static create(properties?: fermata.v1.PublishStreamResponse.$Properties): fermata.v1.PublishStreamResponse;
            static encode(message: fermata.v1.PublishStreamResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishStreamResponse & fermata.v1.PublishStreamResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishStreamResponse {
            interface $Properties {
                sequence?: (Long|null);
                results?: (fermata.v1.PublishResult.$Properties[]|null);
                error?: (fermata.v1.ErrorStatus.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PublishStreamResponse.$Properties;
        }

        interface ISubscribe extends fermata.v1.Subscribe.$Properties {
        }

        class Subscribe {
            constructor(properties?: fermata.v1.Subscribe.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            prefetch: number;
            leaseMs: Long;
            holdsAhead: boolean;
            consumerId: Long;
            heldTags: Uint8Array[];
            static create(properties: fermata.v1.Subscribe.$Shape): fermata.v1.Subscribe & fermata.v1.Subscribe.$Shape;
            static create(properties?: fermata.v1.Subscribe.$Properties): fermata.v1.Subscribe;
            static encode(message: fermata.v1.Subscribe.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Subscribe & fermata.v1.Subscribe.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Subscribe {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                prefetch?: (number|null);
                leaseMs?: (Long|null);
                holdsAhead?: (boolean|null);
                consumerId?: (Long|null);
                heldTags?: (Uint8Array[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Subscribe.$Properties;
        }

        interface ICredit extends fermata.v1.Credit.$Properties {
        }

        class Credit {
            constructor(properties?: fermata.v1.Credit.$Properties);
            $unknowns?: Uint8Array[];
            n: number;
            static create(properties: fermata.v1.Credit.$Shape): fermata.v1.Credit & fermata.v1.Credit.$Shape;
            static create(properties?: fermata.v1.Credit.$Properties): fermata.v1.Credit;
            static encode(message: fermata.v1.Credit.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Credit & fermata.v1.Credit.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Credit {
            interface $Properties {
                n?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Credit.$Properties;
        }

        interface IStreamAck extends fermata.v1.StreamAck.$Properties {
        }

        class StreamAck {
            constructor(properties?: fermata.v1.StreamAck.$Properties);
            $unknowns?: Uint8Array[];
            tags: Uint8Array[];
            requestId: Long;
            static create(properties: fermata.v1.StreamAck.$Shape): fermata.v1.StreamAck & fermata.v1.StreamAck.$Shape;
            static create(properties?: fermata.v1.StreamAck.$Properties): fermata.v1.StreamAck;
            static encode(message: fermata.v1.StreamAck.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.StreamAck & fermata.v1.StreamAck.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace StreamAck {
            interface $Properties {
                tags?: (Uint8Array[]|null);
                requestId?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.StreamAck.$Properties;
        }

        interface IStreamNack extends fermata.v1.StreamNack.$Properties {
        }

        class StreamNack {
            constructor(properties?: fermata.v1.StreamNack.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            delayMs: Long;
            requestId: Long;
            error: string;
            static create(properties: fermata.v1.StreamNack.$Shape): fermata.v1.StreamNack & fermata.v1.StreamNack.$Shape;
            static create(properties?: fermata.v1.StreamNack.$Properties): fermata.v1.StreamNack;
            static encode(message: fermata.v1.StreamNack.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.StreamNack & fermata.v1.StreamNack.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace StreamNack {
            interface $Properties {
                tag?: (Uint8Array|null);
                delayMs?: (Long|null);
                requestId?: (Long|null);
                error?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.StreamNack.$Properties;
        }

        interface IStreamExtend extends fermata.v1.StreamExtend.$Properties {
        }

        class StreamExtend {
            constructor(properties?: fermata.v1.StreamExtend.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            leaseMs: Long;
            requestId: Long;
            static create(properties: fermata.v1.StreamExtend.$Shape): fermata.v1.StreamExtend & fermata.v1.StreamExtend.$Shape;
            static create(properties?: fermata.v1.StreamExtend.$Properties): fermata.v1.StreamExtend;
            static encode(message: fermata.v1.StreamExtend.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.StreamExtend & fermata.v1.StreamExtend.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace StreamExtend {
            interface $Properties {
                tag?: (Uint8Array|null);
                leaseMs?: (Long|null);
                requestId?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.StreamExtend.$Properties;
        }

        interface IConsumeRequest extends fermata.v1.ConsumeRequest.$Properties {
        }

        class ConsumeRequest {
            constructor(properties?: fermata.v1.ConsumeRequest.$Properties);
            $unknowns?: Uint8Array[];
            subscribe?: (fermata.v1.Subscribe.$Properties|null);
            credit?: (fermata.v1.Credit.$Properties|null);
            ack?: (fermata.v1.StreamAck.$Properties|null);
            nack?: (fermata.v1.StreamNack.$Properties|null);
            extend?: (fermata.v1.StreamExtend.$Properties|null);
            kind?: ("subscribe"|"credit"|"ack"|"nack"|"extend");
            static create(properties: fermata.v1.ConsumeRequest.$Shape): fermata.v1.ConsumeRequest & fermata.v1.ConsumeRequest.$Shape;
            static create(properties?: fermata.v1.ConsumeRequest.$Properties): fermata.v1.ConsumeRequest;
            static encode(message: fermata.v1.ConsumeRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ConsumeRequest & fermata.v1.ConsumeRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ConsumeRequest {
            interface $Properties {
                subscribe?: (fermata.v1.Subscribe.$Properties|null);
                credit?: (fermata.v1.Credit.$Properties|null);
                ack?: (fermata.v1.StreamAck.$Properties|null);
                nack?: (fermata.v1.StreamNack.$Properties|null);
                extend?: (fermata.v1.StreamExtend.$Properties|null);
                kind?: ("subscribe"|"credit"|"ack"|"nack"|"extend");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              subscribe?: fermata.v1.Subscribe.$Shape|null;
              credit?: fermata.v1.Credit.$Shape|null;
              ack?: fermata.v1.StreamAck.$Shape|null;
              nack?: fermata.v1.StreamNack.$Shape|null;
              extend?: fermata.v1.StreamExtend.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ kind?: undefined; subscribe?: null; credit?: null; ack?: null; nack?: null; extend?: null }|{ kind?: "subscribe"; subscribe: fermata.v1.Subscribe.$Shape; credit?: null; ack?: null; nack?: null; extend?: null }|{ kind?: "credit"; subscribe?: null; credit: fermata.v1.Credit.$Shape; ack?: null; nack?: null; extend?: null }|{ kind?: "ack"; subscribe?: null; credit?: null; ack: fermata.v1.StreamAck.$Shape; nack?: null; extend?: null }|{ kind?: "nack"; subscribe?: null; credit?: null; ack?: null; nack: fermata.v1.StreamNack.$Shape; extend?: null }|{ kind?: "extend"; subscribe?: null; credit?: null; ack?: null; nack?: null; extend: fermata.v1.StreamExtend.$Shape })
            );
        }

        interface IDelivery extends fermata.v1.Delivery.$Properties {
        }

        class Delivery {
            constructor(properties?: fermata.v1.Delivery.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            id: Long;
            topic: string;
            group: string;
            payload: Uint8Array;
            headers: { [k: string]: string };
            key: string;
            dueAtMs: Long;
            enqueuedAtMs: Long;
            attempt: number;
            leaseExpiresAtMs: Long;
            startsAtMs: Long;
            maxAttempts: number;
            static create(properties: fermata.v1.Delivery.$Shape): fermata.v1.Delivery & fermata.v1.Delivery.$Shape;
            static create(properties?: fermata.v1.Delivery.$Properties): fermata.v1.Delivery;
            static encode(message: fermata.v1.Delivery.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Delivery & fermata.v1.Delivery.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Delivery {
            interface $Properties {
                tag?: (Uint8Array|null);
                id?: (Long|null);
                topic?: (string|null);
                group?: (string|null);
                payload?: (Uint8Array|null);
                headers?: ({ [k: string]: string }|null);
                key?: (string|null);
                dueAtMs?: (Long|null);
                enqueuedAtMs?: (Long|null);
                attempt?: (number|null);
                leaseExpiresAtMs?: (Long|null);
                startsAtMs?: (Long|null);
                maxAttempts?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Delivery.$Properties;
        }

        interface IDeliveryBatch extends fermata.v1.DeliveryBatch.$Properties {
        }

        class DeliveryBatch {
            constructor(properties?: fermata.v1.DeliveryBatch.$Properties);
            $unknowns?: Uint8Array[];
            deliveries: fermata.v1.Delivery.$Properties[];
            sentAtMs: Long;
            static create(properties: fermata.v1.DeliveryBatch.$Shape): fermata.v1.DeliveryBatch & fermata.v1.DeliveryBatch.$Shape;
            static create(properties?: fermata.v1.DeliveryBatch.$Properties): fermata.v1.DeliveryBatch;
            static encode(message: fermata.v1.DeliveryBatch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeliveryBatch & fermata.v1.DeliveryBatch.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeliveryBatch {
            interface $Properties {
                deliveries?: (fermata.v1.Delivery.$Properties[]|null);
                sentAtMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeliveryBatch.$Properties;
        }

        interface ISubscribed extends fermata.v1.Subscribed.$Properties {
        }

        class Subscribed {
            constructor(properties?: fermata.v1.Subscribed.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            prefetch: number;
            leaseMs: Long;
            releasedTags: Uint8Array[];
            static create(properties: fermata.v1.Subscribed.$Shape): fermata.v1.Subscribed & fermata.v1.Subscribed.$Shape;
            static create(properties?: fermata.v1.Subscribed.$Properties): fermata.v1.Subscribed;
            static encode(message: fermata.v1.Subscribed.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Subscribed & fermata.v1.Subscribed.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Subscribed {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                prefetch?: (number|null);
                leaseMs?: (Long|null);
                releasedTags?: (Uint8Array[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Subscribed.$Properties;
        }

        enum SettleStatus {
            SETTLE_STATUS_UNSPECIFIED = 0,
            SETTLE_STATUS_OK = 1,
            SETTLE_STATUS_LEASE_EXPIRED = 2
        }

        interface ISettleOutcome extends fermata.v1.SettleOutcome.$Properties {
        }

        class SettleOutcome {
            constructor(properties?: fermata.v1.SettleOutcome.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            status: fermata.v1.SettleStatus;
            newTag: Uint8Array;
            dueAtMs: Long;
            static create(properties: fermata.v1.SettleOutcome.$Shape): fermata.v1.SettleOutcome & fermata.v1.SettleOutcome.$Shape;
            static create(properties?: fermata.v1.SettleOutcome.$Properties): fermata.v1.SettleOutcome;
            static encode(message: fermata.v1.SettleOutcome.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.SettleOutcome & fermata.v1.SettleOutcome.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace SettleOutcome {
            interface $Properties {
                tag?: (Uint8Array|null);
                status?: (fermata.v1.SettleStatus|null);
                newTag?: (Uint8Array|null);
                dueAtMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.SettleOutcome.$Properties;
        }

        interface ISettleResult extends fermata.v1.SettleResult.$Properties {
        }

        class SettleResult {
            constructor(properties?: fermata.v1.SettleResult.$Properties);
            $unknowns?: Uint8Array[];
            requestId: Long;
            outcomes: fermata.v1.SettleOutcome.$Properties[];
            error?: (fermata.v1.ErrorStatus.$Properties|null);
            static create(properties: fermata.v1.SettleResult.$Shape): fermata.v1.SettleResult & fermata.v1.SettleResult.$Shape;
            static create(properties?: fermata.v1.SettleResult.$Properties): fermata.v1.SettleResult;
            static encode(message: fermata.v1.SettleResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.SettleResult & fermata.v1.SettleResult.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace SettleResult {
            interface $Properties {
                requestId?: (Long|null);
                outcomes?: (fermata.v1.SettleOutcome.$Properties[]|null);
                error?: (fermata.v1.ErrorStatus.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.SettleResult.$Properties;
        }

        interface IConsumeResponse extends fermata.v1.ConsumeResponse.$Properties {
        }

        class ConsumeResponse {
            constructor(properties?: fermata.v1.ConsumeResponse.$Properties);
            $unknowns?: Uint8Array[];
            subscribed?: (fermata.v1.Subscribed.$Properties|null);
            deliveries?: (fermata.v1.DeliveryBatch.$Properties|null);
            result?: (fermata.v1.SettleResult.$Properties|null);
            kind?: ("subscribed"|"deliveries"|"result");
            static create(properties: fermata.v1.ConsumeResponse.$Shape): fermata.v1.ConsumeResponse & fermata.v1.ConsumeResponse.$Shape;
            static create(properties?: fermata.v1.ConsumeResponse.$Properties): fermata.v1.ConsumeResponse;
            static encode(message: fermata.v1.ConsumeResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ConsumeResponse & fermata.v1.ConsumeResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ConsumeResponse {
            interface $Properties {
                subscribed?: (fermata.v1.Subscribed.$Properties|null);
                deliveries?: (fermata.v1.DeliveryBatch.$Properties|null);
                result?: (fermata.v1.SettleResult.$Properties|null);
                kind?: ("subscribed"|"deliveries"|"result");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              subscribed?: fermata.v1.Subscribed.$Shape|null;
              deliveries?: fermata.v1.DeliveryBatch.$Shape|null;
              result?: fermata.v1.SettleResult.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ kind?: undefined; subscribed?: null; deliveries?: null; result?: null }|{ kind?: "subscribed"; subscribed: fermata.v1.Subscribed.$Shape; deliveries?: null; result?: null }|{ kind?: "deliveries"; subscribed?: null; deliveries: fermata.v1.DeliveryBatch.$Shape; result?: null }|{ kind?: "result"; subscribed?: null; deliveries?: null; result: fermata.v1.SettleResult.$Shape })
            );
        }

        interface IAckRequest extends fermata.v1.AckRequest.$Properties {
        }

        class AckRequest {
            constructor(properties?: fermata.v1.AckRequest.$Properties);
            $unknowns?: Uint8Array[];
            tags: Uint8Array[];
            static create(properties: fermata.v1.AckRequest.$Shape): fermata.v1.AckRequest & fermata.v1.AckRequest.$Shape;
            static create(properties?: fermata.v1.AckRequest.$Properties): fermata.v1.AckRequest;
            static encode(message: fermata.v1.AckRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.AckRequest & fermata.v1.AckRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace AckRequest {
            interface $Properties {
                tags?: (Uint8Array[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.AckRequest.$Properties;
        }

        interface IAckResponse extends fermata.v1.AckResponse.$Properties {
        }

        class AckResponse {
            constructor(properties?: fermata.v1.AckResponse.$Properties);
            $unknowns?: Uint8Array[];
            outcomes: fermata.v1.SettleOutcome.$Properties[];
            static create(properties: fermata.v1.AckResponse.$Shape): fermata.v1.AckResponse & fermata.v1.AckResponse.$Shape;
            static create(properties?: fermata.v1.AckResponse.$Properties): fermata.v1.AckResponse;
            static encode(message: fermata.v1.AckResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.AckResponse & fermata.v1.AckResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace AckResponse {
            interface $Properties {
                outcomes?: (fermata.v1.SettleOutcome.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.AckResponse.$Properties;
        }

        interface INackRequest extends fermata.v1.NackRequest.$Properties {
        }

        class NackRequest {
            constructor(properties?: fermata.v1.NackRequest.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            delayMs: Long;
            error: string;
            static create(properties: fermata.v1.NackRequest.$Shape): fermata.v1.NackRequest & fermata.v1.NackRequest.$Shape;
            static create(properties?: fermata.v1.NackRequest.$Properties): fermata.v1.NackRequest;
            static encode(message: fermata.v1.NackRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.NackRequest & fermata.v1.NackRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace NackRequest {
            interface $Properties {
                tag?: (Uint8Array|null);
                delayMs?: (Long|null);
                error?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.NackRequest.$Properties;
        }

        interface INackResponse extends fermata.v1.NackResponse.$Properties {
        }

        class NackResponse {
            constructor(properties?: fermata.v1.NackResponse.$Properties);
            $unknowns?: Uint8Array[];
            outcome?: (fermata.v1.SettleOutcome.$Properties|null);
            static create(properties: fermata.v1.NackResponse.$Shape): fermata.v1.NackResponse & fermata.v1.NackResponse.$Shape;
            static create(properties?: fermata.v1.NackResponse.$Properties): fermata.v1.NackResponse;
            static encode(message: fermata.v1.NackResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.NackResponse & fermata.v1.NackResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace NackResponse {
            interface $Properties {
                outcome?: (fermata.v1.SettleOutcome.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.NackResponse.$Properties;
        }

        interface IExtendRequest extends fermata.v1.ExtendRequest.$Properties {
        }

        class ExtendRequest {
            constructor(properties?: fermata.v1.ExtendRequest.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            leaseMs: Long;
            static create(properties: fermata.v1.ExtendRequest.$Shape): fermata.v1.ExtendRequest & fermata.v1.ExtendRequest.$Shape;
            static create(properties?: fermata.v1.ExtendRequest.$Properties): fermata.v1.ExtendRequest;
            static encode(message: fermata.v1.ExtendRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ExtendRequest & fermata.v1.ExtendRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ExtendRequest {
            interface $Properties {
                tag?: (Uint8Array|null);
                leaseMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ExtendRequest.$Properties;
        }

        interface IExtendResponse extends fermata.v1.ExtendResponse.$Properties {
        }

        class ExtendResponse {
            constructor(properties?: fermata.v1.ExtendResponse.$Properties);
            $unknowns?: Uint8Array[];
            outcome?: (fermata.v1.SettleOutcome.$Properties|null);
            static create(properties: fermata.v1.ExtendResponse.$Shape): fermata.v1.ExtendResponse & fermata.v1.ExtendResponse.$Shape;
            static create(properties?: fermata.v1.ExtendResponse.$Properties): fermata.v1.ExtendResponse;
            static encode(message: fermata.v1.ExtendResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ExtendResponse & fermata.v1.ExtendResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ExtendResponse {
            interface $Properties {
                outcome?: (fermata.v1.SettleOutcome.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ExtendResponse.$Properties;
        }

        enum CancelStatus {
            CANCEL_STATUS_UNSPECIFIED = 0,
            CANCEL_STATUS_CANCELLED = 1,
            CANCEL_STATUS_NOT_FOUND = 2,
            CANCEL_STATUS_IN_FLIGHT = 3,
            CANCEL_STATUS_ALREADY_DONE = 4
        }

        interface ICancelRequest extends fermata.v1.CancelRequest.$Properties {
        }

        class CancelRequest {
            constructor(properties?: fermata.v1.CancelRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            id?: (Long|null);
            key?: (string|null);
            target?: ("id"|"key");
            static create(properties: fermata.v1.CancelRequest.$Shape): fermata.v1.CancelRequest & fermata.v1.CancelRequest.$Shape;
            static create(properties?: fermata.v1.CancelRequest.$Properties): fermata.v1.CancelRequest;
            static encode(message: fermata.v1.CancelRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CancelRequest & fermata.v1.CancelRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CancelRequest {
            interface $Properties {
                topic?: (string|null);
                id?: (Long|null);
                key?: (string|null);
                target?: ("id"|"key");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              topic?: string|null;
              id?: Long|null;
              key?: string|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ target?: undefined; id?: null; key?: null }|{ target?: "id"; id: Long; key?: null }|{ target?: "key"; id?: null; key: string })
            );
        }

        interface ICancelResponse extends fermata.v1.CancelResponse.$Properties {
        }

        class CancelResponse {
            constructor(properties?: fermata.v1.CancelResponse.$Properties);
            $unknowns?: Uint8Array[];
            status: fermata.v1.CancelStatus;
            id: Long;
            static create(properties: fermata.v1.CancelResponse.$Shape): fermata.v1.CancelResponse & fermata.v1.CancelResponse.$Shape;
            static create(properties?: fermata.v1.CancelResponse.$Properties): fermata.v1.CancelResponse;
            static encode(message: fermata.v1.CancelResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CancelResponse & fermata.v1.CancelResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CancelResponse {
            interface $Properties {
                status?: (fermata.v1.CancelStatus|null);
                id?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CancelResponse.$Properties;
        }

        enum RescheduleStatus {
            RESCHEDULE_STATUS_UNSPECIFIED = 0,
            RESCHEDULE_STATUS_RESCHEDULED = 1,
            RESCHEDULE_STATUS_NOT_FOUND = 2,
            RESCHEDULE_STATUS_IN_FLIGHT = 3,
            RESCHEDULE_STATUS_ALREADY_DONE = 4
        }

        interface IRescheduleRequest extends fermata.v1.RescheduleRequest.$Properties {
        }

        class RescheduleRequest {
            constructor(properties?: fermata.v1.RescheduleRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            id?: (Long|null);
            key?: (string|null);
            delayMs?: (Long|null);
            deliverAtMs?: (Long|null);
            target?: ("id"|"key");
            schedule?: ("delayMs"|"deliverAtMs");
            static create(properties: fermata.v1.RescheduleRequest.$Shape): fermata.v1.RescheduleRequest & fermata.v1.RescheduleRequest.$Shape;
            static create(properties?: fermata.v1.RescheduleRequest.$Properties): fermata.v1.RescheduleRequest;
            static encode(message: fermata.v1.RescheduleRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RescheduleRequest & fermata.v1.RescheduleRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RescheduleRequest {
            interface $Properties {
                topic?: (string|null);
                id?: (Long|null);
                key?: (string|null);
                delayMs?: (Long|null);
                deliverAtMs?: (Long|null);
                target?: ("id"|"key");
                schedule?: ("delayMs"|"deliverAtMs");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              topic?: string|null;
              id?: Long|null;
              key?: string|null;
              delayMs?: Long|null;
              deliverAtMs?: Long|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ target?: undefined; id?: null; key?: null }|{ target?: "id"; id: Long; key?: null }|{ target?: "key"; id?: null; key: string })
            ) & (
              ({ schedule?: undefined; delayMs?: null; deliverAtMs?: null }|{ schedule?: "delayMs"; delayMs: Long; deliverAtMs?: null }|{ schedule?: "deliverAtMs"; delayMs?: null; deliverAtMs: Long })
            );
        }

        interface IRescheduleResponse extends fermata.v1.RescheduleResponse.$Properties {
        }

        class RescheduleResponse {
            constructor(properties?: fermata.v1.RescheduleResponse.$Properties);
            $unknowns?: Uint8Array[];
            status: fermata.v1.RescheduleStatus;
            dueAtMs: Long;
            id: Long;
            static create(properties: fermata.v1.RescheduleResponse.$Shape): fermata.v1.RescheduleResponse & fermata.v1.RescheduleResponse.$Shape;
            static create(properties?: fermata.v1.RescheduleResponse.$Properties): fermata.v1.RescheduleResponse;
            static encode(message: fermata.v1.RescheduleResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RescheduleResponse & fermata.v1.RescheduleResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RescheduleResponse {
            interface $Properties {
                status?: (fermata.v1.RescheduleStatus|null);
                dueAtMs?: (Long|null);
                id?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RescheduleResponse.$Properties;
        }

        enum MessageState {
            MESSAGE_STATE_UNSPECIFIED = 0,
            MESSAGE_STATE_PENDING = 1,
            MESSAGE_STATE_IN_FLIGHT = 2,
            MESSAGE_STATE_DONE = 3,
            MESSAGE_STATE_DEAD_LETTERED = 4
        }

        interface IGroupState extends fermata.v1.GroupState.$Properties {
        }

        class GroupState {
            constructor(properties?: fermata.v1.GroupState.$Properties);
            $unknowns?: Uint8Array[];
            group: string;
            state: fermata.v1.MessageState;
            dueAtMs: Long;
            attempt: number;
            static create(properties: fermata.v1.GroupState.$Shape): fermata.v1.GroupState & fermata.v1.GroupState.$Shape;
            static create(properties?: fermata.v1.GroupState.$Properties): fermata.v1.GroupState;
            static encode(message: fermata.v1.GroupState.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GroupState & fermata.v1.GroupState.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GroupState {
            interface $Properties {
                group?: (string|null);
                state?: (fermata.v1.MessageState|null);
                dueAtMs?: (Long|null);
                attempt?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GroupState.$Properties;
        }

        interface IMessageInfo extends fermata.v1.MessageInfo.$Properties {
        }

        class MessageInfo {
            constructor(properties?: fermata.v1.MessageInfo.$Properties);
            $unknowns?: Uint8Array[];
            id: Long;
            topic: string;
            payload: Uint8Array;
            headers: { [k: string]: string };
            key: string;
            enqueuedAtMs: Long;
            dueAtMs: Long;
            expireAtMs: Long;
            orderingKey: string;
            deliverBeforeMs: Long;
            static create(properties: fermata.v1.MessageInfo.$Shape): fermata.v1.MessageInfo & fermata.v1.MessageInfo.$Shape;
            static create(properties?: fermata.v1.MessageInfo.$Properties): fermata.v1.MessageInfo;
            static encode(message: fermata.v1.MessageInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.MessageInfo & fermata.v1.MessageInfo.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace MessageInfo {
            interface $Properties {
                id?: (Long|null);
                topic?: (string|null);
                payload?: (Uint8Array|null);
                headers?: ({ [k: string]: string }|null);
                key?: (string|null);
                enqueuedAtMs?: (Long|null);
                dueAtMs?: (Long|null);
                expireAtMs?: (Long|null);
                orderingKey?: (string|null);
                deliverBeforeMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.MessageInfo.$Properties;
        }

        interface IGetMessageRequest extends fermata.v1.GetMessageRequest.$Properties {
        }

        class GetMessageRequest {
            constructor(properties?: fermata.v1.GetMessageRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            id?: (Long|null);
            key?: (string|null);
            target?: ("id"|"key");
            static create(properties: fermata.v1.GetMessageRequest.$Shape): fermata.v1.GetMessageRequest & fermata.v1.GetMessageRequest.$Shape;
            static create(properties?: fermata.v1.GetMessageRequest.$Properties): fermata.v1.GetMessageRequest;
            static encode(message: fermata.v1.GetMessageRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetMessageRequest & fermata.v1.GetMessageRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetMessageRequest {
            interface $Properties {
                topic?: (string|null);
                id?: (Long|null);
                key?: (string|null);
                target?: ("id"|"key");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              topic?: string|null;
              id?: Long|null;
              key?: string|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ target?: undefined; id?: null; key?: null }|{ target?: "id"; id: Long; key?: null }|{ target?: "key"; id?: null; key: string })
            );
        }

        interface IGetMessageResponse extends fermata.v1.GetMessageResponse.$Properties {
        }

        class GetMessageResponse {
            constructor(properties?: fermata.v1.GetMessageResponse.$Properties);
            $unknowns?: Uint8Array[];
            message?: (fermata.v1.MessageInfo.$Properties|null);
            groups: fermata.v1.GroupState.$Properties[];
            static create(properties: fermata.v1.GetMessageResponse.$Shape): fermata.v1.GetMessageResponse & fermata.v1.GetMessageResponse.$Shape;
            static create(properties?: fermata.v1.GetMessageResponse.$Properties): fermata.v1.GetMessageResponse;
            static encode(message: fermata.v1.GetMessageResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetMessageResponse & fermata.v1.GetMessageResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetMessageResponse {
            interface $Properties {
                message?: (fermata.v1.MessageInfo.$Properties|null);
                groups?: (fermata.v1.GroupState.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetMessageResponse.$Properties;
        }

        interface IListMessagesRequest extends fermata.v1.ListMessagesRequest.$Properties {
        }

        class ListMessagesRequest {
            constructor(properties?: fermata.v1.ListMessagesRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            fromDueMs: Long;
            toDueMs: Long;
            limit: number;
            pageToken: Uint8Array;
            static create(properties: fermata.v1.ListMessagesRequest.$Shape): fermata.v1.ListMessagesRequest & fermata.v1.ListMessagesRequest.$Shape;
            static create(properties?: fermata.v1.ListMessagesRequest.$Properties): fermata.v1.ListMessagesRequest;
            static encode(message: fermata.v1.ListMessagesRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListMessagesRequest & fermata.v1.ListMessagesRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListMessagesRequest {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                fromDueMs?: (Long|null);
                toDueMs?: (Long|null);
                limit?: (number|null);
                pageToken?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListMessagesRequest.$Properties;
        }

        interface IListedMessage extends fermata.v1.ListedMessage.$Properties {
        }

        class ListedMessage {
            constructor(properties?: fermata.v1.ListedMessage.$Properties);
            $unknowns?: Uint8Array[];
            message?: (fermata.v1.MessageInfo.$Properties|null);
            state: fermata.v1.MessageState;
            dueAtMs: Long;
            attempt: number;
            tag: Uint8Array;
            static create(properties: fermata.v1.ListedMessage.$Shape): fermata.v1.ListedMessage & fermata.v1.ListedMessage.$Shape;
            static create(properties?: fermata.v1.ListedMessage.$Properties): fermata.v1.ListedMessage;
            static encode(message: fermata.v1.ListedMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListedMessage & fermata.v1.ListedMessage.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListedMessage {
            interface $Properties {
                message?: (fermata.v1.MessageInfo.$Properties|null);
                state?: (fermata.v1.MessageState|null);
                dueAtMs?: (Long|null);
                attempt?: (number|null);
                tag?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListedMessage.$Properties;
        }

        interface IListMessagesResponse extends fermata.v1.ListMessagesResponse.$Properties {
        }

        class ListMessagesResponse {
            constructor(properties?: fermata.v1.ListMessagesResponse.$Properties);
            $unknowns?: Uint8Array[];
            messages: fermata.v1.ListedMessage.$Properties[];
            nextPageToken: Uint8Array;
            static create(properties: fermata.v1.ListMessagesResponse.$Shape): fermata.v1.ListMessagesResponse & fermata.v1.ListMessagesResponse.$Shape;
            static create(properties?: fermata.v1.ListMessagesResponse.$Properties): fermata.v1.ListMessagesResponse;
            static encode(message: fermata.v1.ListMessagesResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListMessagesResponse & fermata.v1.ListMessagesResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListMessagesResponse {
            interface $Properties {
                messages?: (fermata.v1.ListedMessage.$Properties[]|null);
                nextPageToken?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListMessagesResponse.$Properties;
        }

        interface IGetDueForecastRequest extends fermata.v1.GetDueForecastRequest.$Properties {
        }

        class GetDueForecastRequest {
            constructor(properties?: fermata.v1.GetDueForecastRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            fromMs: Long;
            toMs: Long;
            bucketMs: Long;
            static create(properties: fermata.v1.GetDueForecastRequest.$Shape): fermata.v1.GetDueForecastRequest & fermata.v1.GetDueForecastRequest.$Shape;
            static create(properties?: fermata.v1.GetDueForecastRequest.$Properties): fermata.v1.GetDueForecastRequest;
            static encode(message: fermata.v1.GetDueForecastRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetDueForecastRequest & fermata.v1.GetDueForecastRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetDueForecastRequest {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                fromMs?: (Long|null);
                toMs?: (Long|null);
                bucketMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetDueForecastRequest.$Properties;
        }

        interface IForecastBucket extends fermata.v1.ForecastBucket.$Properties {
        }

        class ForecastBucket {
            constructor(properties?: fermata.v1.ForecastBucket.$Properties);
            $unknowns?: Uint8Array[];
            startMs: Long;
            endMs: Long;
            count: Long;
            scheduled: Long;
            static create(properties: fermata.v1.ForecastBucket.$Shape): fermata.v1.ForecastBucket & fermata.v1.ForecastBucket.$Shape;
            static create(properties?: fermata.v1.ForecastBucket.$Properties): fermata.v1.ForecastBucket;
            static encode(message: fermata.v1.ForecastBucket.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ForecastBucket & fermata.v1.ForecastBucket.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ForecastBucket {
            interface $Properties {
                startMs?: (Long|null);
                endMs?: (Long|null);
                count?: (Long|null);
                scheduled?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ForecastBucket.$Properties;
        }

        interface IGetDueForecastResponse extends fermata.v1.GetDueForecastResponse.$Properties {
        }

        class GetDueForecastResponse {
            constructor(properties?: fermata.v1.GetDueForecastResponse.$Properties);
            $unknowns?: Uint8Array[];
            buckets: fermata.v1.ForecastBucket.$Properties[];
            pending: Long;
            inFlight: Long;
            complete: boolean;
            schedulesTruncated: boolean;
            static create(properties: fermata.v1.GetDueForecastResponse.$Shape): fermata.v1.GetDueForecastResponse & fermata.v1.GetDueForecastResponse.$Shape;
            static create(properties?: fermata.v1.GetDueForecastResponse.$Properties): fermata.v1.GetDueForecastResponse;
            static encode(message: fermata.v1.GetDueForecastResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetDueForecastResponse & fermata.v1.GetDueForecastResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetDueForecastResponse {
            interface $Properties {
                buckets?: (fermata.v1.ForecastBucket.$Properties[]|null);
                pending?: (Long|null);
                inFlight?: (Long|null);
                complete?: (boolean|null);
                schedulesTruncated?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetDueForecastResponse.$Properties;
        }

        interface IRedriveRequest extends fermata.v1.RedriveRequest.$Properties {
        }

        class RedriveRequest {
            constructor(properties?: fermata.v1.RedriveRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            ids: Long[];
            all: boolean;
            limit: number;
            pageToken: Uint8Array;
            static create(properties: fermata.v1.RedriveRequest.$Shape): fermata.v1.RedriveRequest & fermata.v1.RedriveRequest.$Shape;
            static create(properties?: fermata.v1.RedriveRequest.$Properties): fermata.v1.RedriveRequest;
            static encode(message: fermata.v1.RedriveRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RedriveRequest & fermata.v1.RedriveRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RedriveRequest {
            interface $Properties {
                topic?: (string|null);
                ids?: (Long[]|null);
                all?: (boolean|null);
                limit?: (number|null);
                pageToken?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RedriveRequest.$Properties;
        }

        enum RedriveStatus {
            REDRIVE_STATUS_UNSPECIFIED = 0,
            REDRIVE_STATUS_REDRIVEN = 1,
            REDRIVE_STATUS_NOT_FOUND = 2,
            REDRIVE_STATUS_NOT_A_DEAD_LETTER = 3,
            REDRIVE_STATUS_IN_FLIGHT = 4,
            REDRIVE_STATUS_GROUP_GONE = 5
        }

        interface IRedriveResult extends fermata.v1.RedriveResult.$Properties {
        }

        class RedriveResult {
            constructor(properties?: fermata.v1.RedriveResult.$Properties);
            $unknowns?: Uint8Array[];
            id: Long;
            status: fermata.v1.RedriveStatus;
            newId: Long;
            static create(properties: fermata.v1.RedriveResult.$Shape): fermata.v1.RedriveResult & fermata.v1.RedriveResult.$Shape;
            static create(properties?: fermata.v1.RedriveResult.$Properties): fermata.v1.RedriveResult;
            static encode(message: fermata.v1.RedriveResult.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RedriveResult & fermata.v1.RedriveResult.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RedriveResult {
            interface $Properties {
                id?: (Long|null);
                status?: (fermata.v1.RedriveStatus|null);
                newId?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RedriveResult.$Properties;
        }

        interface IRedriveResponse extends fermata.v1.RedriveResponse.$Properties {
        }

        class RedriveResponse {
            constructor(properties?: fermata.v1.RedriveResponse.$Properties);
            $unknowns?: Uint8Array[];
            results: fermata.v1.RedriveResult.$Properties[];
            nextPageToken: Uint8Array;
            static create(properties: fermata.v1.RedriveResponse.$Shape): fermata.v1.RedriveResponse & fermata.v1.RedriveResponse.$Shape;
            static create(properties?: fermata.v1.RedriveResponse.$Properties): fermata.v1.RedriveResponse;
            static encode(message: fermata.v1.RedriveResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RedriveResponse & fermata.v1.RedriveResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RedriveResponse {
            interface $Properties {
                results?: (fermata.v1.RedriveResult.$Properties[]|null);
                nextPageToken?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RedriveResponse.$Properties;
        }

        enum Durability {
            DURABILITY_UNSPECIFIED = 0,
            DURABILITY_QUORUM = 1,
            DURABILITY_LEADER = 2
        }

        interface IErrorStatus extends fermata.v1.ErrorStatus.$Properties {
        }

        class ErrorStatus {
            constructor(properties?: fermata.v1.ErrorStatus.$Properties);
            $unknowns?: Uint8Array[];
            code: number;
            message: string;
            field: string;
            leaderAddress: string;
            static create(properties: fermata.v1.ErrorStatus.$Shape): fermata.v1.ErrorStatus & fermata.v1.ErrorStatus.$Shape;
            static create(properties?: fermata.v1.ErrorStatus.$Properties): fermata.v1.ErrorStatus;
            static encode(message: fermata.v1.ErrorStatus.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ErrorStatus & fermata.v1.ErrorStatus.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ErrorStatus {
            interface $Properties {
                code?: (number|null);
                message?: (string|null);
                field?: (string|null);
                leaderAddress?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ErrorStatus.$Properties;
        }

        class Cluster extends $protobuf.rpc.Service {
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): Cluster;
            getClusterInfo: fermata.v1.Cluster.GetClusterInfo;
            addMember: fermata.v1.Cluster.AddMember;
            removeMember: fermata.v1.Cluster.RemoveMember;
            transferLeadership: fermata.v1.Cluster.TransferLeadership;
        }

        namespace Cluster {
            type GetClusterInfoCallback = (error: (Error|null), response?: fermata.v1.GetClusterInfoResponse) => void;
            type GetClusterInfo = {
              (request: fermata.v1.IGetClusterInfoRequest, callback: fermata.v1.Cluster.GetClusterInfoCallback): void;
              (request: fermata.v1.IGetClusterInfoRequest): Promise<fermata.v1.GetClusterInfoResponse>;
              readonly name: "GetClusterInfo";
              readonly path: "/fermata.v1.Cluster/GetClusterInfo";
              readonly requestType: "GetClusterInfoRequest";
              readonly responseType: "GetClusterInfoResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type AddMemberCallback = (error: (Error|null), response?: fermata.v1.AddMemberResponse) => void;
            type AddMember = {
              (request: fermata.v1.IAddMemberRequest, callback: fermata.v1.Cluster.AddMemberCallback): void;
              (request: fermata.v1.IAddMemberRequest): Promise<fermata.v1.AddMemberResponse>;
              readonly name: "AddMember";
              readonly path: "/fermata.v1.Cluster/AddMember";
              readonly requestType: "AddMemberRequest";
              readonly responseType: "AddMemberResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type RemoveMemberCallback = (error: (Error|null), response?: fermata.v1.RemoveMemberResponse) => void;
            type RemoveMember = {
              (request: fermata.v1.IRemoveMemberRequest, callback: fermata.v1.Cluster.RemoveMemberCallback): void;
              (request: fermata.v1.IRemoveMemberRequest): Promise<fermata.v1.RemoveMemberResponse>;
              readonly name: "RemoveMember";
              readonly path: "/fermata.v1.Cluster/RemoveMember";
              readonly requestType: "RemoveMemberRequest";
              readonly responseType: "RemoveMemberResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type TransferLeadershipCallback = (error: (Error|null), response?: fermata.v1.TransferLeadershipResponse) => void;
            type TransferLeadership = {
              (request: fermata.v1.ITransferLeadershipRequest, callback: fermata.v1.Cluster.TransferLeadershipCallback): void;
              (request: fermata.v1.ITransferLeadershipRequest): Promise<fermata.v1.TransferLeadershipResponse>;
              readonly name: "TransferLeadership";
              readonly path: "/fermata.v1.Cluster/TransferLeadership";
              readonly requestType: "TransferLeadershipRequest";
              readonly responseType: "TransferLeadershipResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
        }

        enum MemberRole {
            MEMBER_ROLE_UNSPECIFIED = 0,
            MEMBER_ROLE_LEADER = 1,
            MEMBER_ROLE_FOLLOWER = 2,
            MEMBER_ROLE_CANDIDATE = 3,
            MEMBER_ROLE_PRE_CANDIDATE = 4,
            MEMBER_ROLE_LEARNER = 5,
            MEMBER_ROLE_UNREACHABLE = 6
        }

        interface IMember extends fermata.v1.Member.$Properties {
        }

        class Member {
            constructor(properties?: fermata.v1.Member.$Properties);
            $unknowns?: Uint8Array[];
            id: string;
            address: string;
            peerAddress: string;
            role: fermata.v1.MemberRole;
            voter: boolean;
            matchIndex: Long;
            lag: Long;
            static create(properties: fermata.v1.Member.$Shape): fermata.v1.Member & fermata.v1.Member.$Shape;
            static create(properties?: fermata.v1.Member.$Properties): fermata.v1.Member;
            static encode(message: fermata.v1.Member.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Member & fermata.v1.Member.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Member {
            interface $Properties {
                id?: (string|null);
                address?: (string|null);
                peerAddress?: (string|null);
                role?: (fermata.v1.MemberRole|null);
                voter?: (boolean|null);
                matchIndex?: (Long|null);
                lag?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Member.$Properties;
        }

        interface IGetClusterInfoRequest extends fermata.v1.GetClusterInfoRequest.$Properties {
        }

        class GetClusterInfoRequest {
            constructor(properties?: fermata.v1.GetClusterInfoRequest.$Properties);
            $unknowns?: Uint8Array[];
            waitForLeaderMs: number;
            unreachableLeaderAddress: string;
            static create(properties: fermata.v1.GetClusterInfoRequest.$Shape): fermata.v1.GetClusterInfoRequest & fermata.v1.GetClusterInfoRequest.$Shape;
            static create(properties?: fermata.v1.GetClusterInfoRequest.$Properties): fermata.v1.GetClusterInfoRequest;
            static encode(message: fermata.v1.GetClusterInfoRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetClusterInfoRequest & fermata.v1.GetClusterInfoRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetClusterInfoRequest {
            interface $Properties {
                waitForLeaderMs?: (number|null);
                unreachableLeaderAddress?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetClusterInfoRequest.$Properties;
        }

        interface IGetClusterInfoResponse extends fermata.v1.GetClusterInfoResponse.$Properties {
        }

        class GetClusterInfoResponse {
            constructor(properties?: fermata.v1.GetClusterInfoResponse.$Properties);
            $unknowns?: Uint8Array[];
            clusterId: string;
            nodeId: string;
            leaderId: string;
            leaderAddress: string;
            term: Long;
            commitIndex: Long;
            appliedIndex: Long;
            members: fermata.v1.Member.$Properties[];
            static create(properties: fermata.v1.GetClusterInfoResponse.$Shape): fermata.v1.GetClusterInfoResponse & fermata.v1.GetClusterInfoResponse.$Shape;
            static create(properties?: fermata.v1.GetClusterInfoResponse.$Properties): fermata.v1.GetClusterInfoResponse;
            static encode(message: fermata.v1.GetClusterInfoResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetClusterInfoResponse & fermata.v1.GetClusterInfoResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetClusterInfoResponse {
            interface $Properties {
                clusterId?: (string|null);
                nodeId?: (string|null);
                leaderId?: (string|null);
                leaderAddress?: (string|null);
                term?: (Long|null);
                commitIndex?: (Long|null);
                appliedIndex?: (Long|null);
                members?: (fermata.v1.Member.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetClusterInfoResponse.$Properties;
        }

        interface IAddMemberRequest extends fermata.v1.AddMemberRequest.$Properties {
        }

        class AddMemberRequest {
            constructor(properties?: fermata.v1.AddMemberRequest.$Properties);
            $unknowns?: Uint8Array[];
            id: string;
            peerAddress: string;
            address: string;
            learnerOnly: boolean;
            static create(properties: fermata.v1.AddMemberRequest.$Shape): fermata.v1.AddMemberRequest & fermata.v1.AddMemberRequest.$Shape;
            static create(properties?: fermata.v1.AddMemberRequest.$Properties): fermata.v1.AddMemberRequest;
            static encode(message: fermata.v1.AddMemberRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.AddMemberRequest & fermata.v1.AddMemberRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace AddMemberRequest {
            interface $Properties {
                id?: (string|null);
                peerAddress?: (string|null);
                address?: (string|null);
                learnerOnly?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.AddMemberRequest.$Properties;
        }

        interface IAddMemberResponse extends fermata.v1.AddMemberResponse.$Properties {
        }

        class AddMemberResponse {
            constructor(properties?: fermata.v1.AddMemberResponse.$Properties);
            $unknowns?: Uint8Array[];
            members: fermata.v1.Member.$Properties[];
            static create(properties: fermata.v1.AddMemberResponse.$Shape): fermata.v1.AddMemberResponse & fermata.v1.AddMemberResponse.$Shape;
            static create(properties?: fermata.v1.AddMemberResponse.$Properties): fermata.v1.AddMemberResponse;
            static encode(message: fermata.v1.AddMemberResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.AddMemberResponse & fermata.v1.AddMemberResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace AddMemberResponse {
            interface $Properties {
                members?: (fermata.v1.Member.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.AddMemberResponse.$Properties;
        }

        interface IRemoveMemberRequest extends fermata.v1.RemoveMemberRequest.$Properties {
        }

        class RemoveMemberRequest {
            constructor(properties?: fermata.v1.RemoveMemberRequest.$Properties);
            $unknowns?: Uint8Array[];
            id: string;
            static create(properties: fermata.v1.RemoveMemberRequest.$Shape): fermata.v1.RemoveMemberRequest & fermata.v1.RemoveMemberRequest.$Shape;
            static create(properties?: fermata.v1.RemoveMemberRequest.$Properties): fermata.v1.RemoveMemberRequest;
            static encode(message: fermata.v1.RemoveMemberRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RemoveMemberRequest & fermata.v1.RemoveMemberRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RemoveMemberRequest {
            interface $Properties {
                id?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RemoveMemberRequest.$Properties;
        }

        interface IRemoveMemberResponse extends fermata.v1.RemoveMemberResponse.$Properties {
        }

        class RemoveMemberResponse {
            constructor(properties?: fermata.v1.RemoveMemberResponse.$Properties);
            $unknowns?: Uint8Array[];
            members: fermata.v1.Member.$Properties[];
            static create(properties: fermata.v1.RemoveMemberResponse.$Shape): fermata.v1.RemoveMemberResponse & fermata.v1.RemoveMemberResponse.$Shape;
            static create(properties?: fermata.v1.RemoveMemberResponse.$Properties): fermata.v1.RemoveMemberResponse;
            static encode(message: fermata.v1.RemoveMemberResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RemoveMemberResponse & fermata.v1.RemoveMemberResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RemoveMemberResponse {
            interface $Properties {
                members?: (fermata.v1.Member.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RemoveMemberResponse.$Properties;
        }

        interface ITransferLeadershipRequest extends fermata.v1.TransferLeadershipRequest.$Properties {
        }

        class TransferLeadershipRequest {
            constructor(properties?: fermata.v1.TransferLeadershipRequest.$Properties);
            $unknowns?: Uint8Array[];
            toId: string;
            static create(properties: fermata.v1.TransferLeadershipRequest.$Shape): fermata.v1.TransferLeadershipRequest & fermata.v1.TransferLeadershipRequest.$Shape;
            static create(properties?: fermata.v1.TransferLeadershipRequest.$Properties): fermata.v1.TransferLeadershipRequest;
            static encode(message: fermata.v1.TransferLeadershipRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TransferLeadershipRequest & fermata.v1.TransferLeadershipRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TransferLeadershipRequest {
            interface $Properties {
                toId?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TransferLeadershipRequest.$Properties;
        }

        interface ITransferLeadershipResponse extends fermata.v1.TransferLeadershipResponse.$Properties {
        }

        class TransferLeadershipResponse {
            constructor(properties?: fermata.v1.TransferLeadershipResponse.$Properties);
            $unknowns?: Uint8Array[];
            leaderId: string;
            static create(properties: fermata.v1.TransferLeadershipResponse.$Shape): fermata.v1.TransferLeadershipResponse & fermata.v1.TransferLeadershipResponse.$Shape;
            static create(properties?: fermata.v1.TransferLeadershipResponse.$Properties): fermata.v1.TransferLeadershipResponse;
            static encode(message: fermata.v1.TransferLeadershipResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TransferLeadershipResponse & fermata.v1.TransferLeadershipResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TransferLeadershipResponse {
            interface $Properties {
                leaderId?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TransferLeadershipResponse.$Properties;
        }

        interface ICommand extends fermata.v1.Command.$Properties {
        }

        class Command {
            constructor(properties?: fermata.v1.Command.$Properties);
            $unknowns?: Uint8Array[];
            nowMs: Long;
            inlineBodies: boolean;
            publish?: (fermata.v1.PublishCommand.$Properties|null);
            lease?: (fermata.v1.LeaseCommand.$Properties|null);
            ack?: (fermata.v1.AckCommand.$Properties|null);
            nack?: (fermata.v1.NackCommand.$Properties|null);
            extend?: (fermata.v1.ExtendCommand.$Properties|null);
            cancel?: (fermata.v1.CancelCommand.$Properties|null);
            reschedule?: (fermata.v1.RescheduleCommand.$Properties|null);
            expire?: (fermata.v1.ExpireCommand.$Properties|null);
            purgeKeys?: (fermata.v1.PurgeKeysCommand.$Properties|null);
            createTopic?: (fermata.v1.CreateTopicCommand.$Properties|null);
            updateTopic?: (fermata.v1.UpdateTopicCommand.$Properties|null);
            deleteTopic?: (fermata.v1.DeleteTopicCommand.$Properties|null);
            createGroup?: (fermata.v1.CreateGroupCommand.$Properties|null);
            deleteGroup?: (fermata.v1.DeleteGroupCommand.$Properties|null);
            schedule?: (fermata.v1.ScheduleCommand.$Properties|null);
            applyLimits?: (fermata.v1.ApplyLimitsCommand.$Properties|null);
            purge?: (fermata.v1.PurgeCommand.$Properties|null);
            redrive?: (fermata.v1.RedriveCommand.$Properties|null);
            forgetPublishes?: (fermata.v1.ForgetPublishesCommand.$Properties|null);
            updateGroup?: (fermata.v1.UpdateGroupCommand.$Properties|null);
            kind?: ("publish"|"lease"|"ack"|"nack"|"extend"|"cancel"|"reschedule"|"expire"|"purgeKeys"|"createTopic"|"updateTopic"|"deleteTopic"|"createGroup"|"deleteGroup"|"schedule"|"applyLimits"|"purge"|"redrive"|"forgetPublishes"|"updateGroup");
            static create(properties: fermata.v1.Command.$Shape): fermata.v1.Command & fermata.v1.Command.$Shape;
            static create(properties?: fermata.v1.Command.$Properties): fermata.v1.Command;
            static encode(message: fermata.v1.Command.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Command & fermata.v1.Command.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Command {
            interface $Properties {
                nowMs?: (Long|null);
                inlineBodies?: (boolean|null);
                publish?: (fermata.v1.PublishCommand.$Properties|null);
                lease?: (fermata.v1.LeaseCommand.$Properties|null);
                ack?: (fermata.v1.AckCommand.$Properties|null);
                nack?: (fermata.v1.NackCommand.$Properties|null);
                extend?: (fermata.v1.ExtendCommand.$Properties|null);
                cancel?: (fermata.v1.CancelCommand.$Properties|null);
                reschedule?: (fermata.v1.RescheduleCommand.$Properties|null);
                expire?: (fermata.v1.ExpireCommand.$Properties|null);
                purgeKeys?: (fermata.v1.PurgeKeysCommand.$Properties|null);
                createTopic?: (fermata.v1.CreateTopicCommand.$Properties|null);
                updateTopic?: (fermata.v1.UpdateTopicCommand.$Properties|null);
                deleteTopic?: (fermata.v1.DeleteTopicCommand.$Properties|null);
                createGroup?: (fermata.v1.CreateGroupCommand.$Properties|null);
                deleteGroup?: (fermata.v1.DeleteGroupCommand.$Properties|null);
                schedule?: (fermata.v1.ScheduleCommand.$Properties|null);
                applyLimits?: (fermata.v1.ApplyLimitsCommand.$Properties|null);
                purge?: (fermata.v1.PurgeCommand.$Properties|null);
                redrive?: (fermata.v1.RedriveCommand.$Properties|null);
                forgetPublishes?: (fermata.v1.ForgetPublishesCommand.$Properties|null);
                updateGroup?: (fermata.v1.UpdateGroupCommand.$Properties|null);
                kind?: ("publish"|"lease"|"ack"|"nack"|"extend"|"cancel"|"reschedule"|"expire"|"purgeKeys"|"createTopic"|"updateTopic"|"deleteTopic"|"createGroup"|"deleteGroup"|"schedule"|"applyLimits"|"purge"|"redrive"|"forgetPublishes"|"updateGroup");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              nowMs?: Long|null;
              inlineBodies?: boolean|null;
              publish?: fermata.v1.PublishCommand.$Shape|null;
              lease?: fermata.v1.LeaseCommand.$Shape|null;
              ack?: fermata.v1.AckCommand.$Shape|null;
              nack?: fermata.v1.NackCommand.$Shape|null;
              extend?: fermata.v1.ExtendCommand.$Shape|null;
              cancel?: fermata.v1.CancelCommand.$Shape|null;
              reschedule?: fermata.v1.RescheduleCommand.$Shape|null;
              expire?: fermata.v1.ExpireCommand.$Shape|null;
              purgeKeys?: fermata.v1.PurgeKeysCommand.$Shape|null;
              createTopic?: fermata.v1.CreateTopicCommand.$Shape|null;
              updateTopic?: fermata.v1.UpdateTopicCommand.$Shape|null;
              deleteTopic?: fermata.v1.DeleteTopicCommand.$Shape|null;
              createGroup?: fermata.v1.CreateGroupCommand.$Shape|null;
              deleteGroup?: fermata.v1.DeleteGroupCommand.$Shape|null;
              schedule?: fermata.v1.ScheduleCommand.$Shape|null;
              applyLimits?: fermata.v1.ApplyLimitsCommand.$Shape|null;
              purge?: fermata.v1.PurgeCommand.$Shape|null;
              redrive?: fermata.v1.RedriveCommand.$Shape|null;
              forgetPublishes?: fermata.v1.ForgetPublishesCommand.$Shape|null;
              updateGroup?: fermata.v1.UpdateGroupCommand.$Shape|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ kind?: undefined; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "publish"; publish: fermata.v1.PublishCommand.$Shape; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "lease"; publish?: null; lease: fermata.v1.LeaseCommand.$Shape; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "ack"; publish?: null; lease?: null; ack: fermata.v1.AckCommand.$Shape; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "nack"; publish?: null; lease?: null; ack?: null; nack: fermata.v1.NackCommand.$Shape; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "extend"; publish?: null; lease?: null; ack?: null; nack?: null; extend: fermata.v1.ExtendCommand.$Shape; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "cancel"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel: fermata.v1.CancelCommand.$Shape; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "reschedule"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule: fermata.v1.RescheduleCommand.$Shape; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "expire"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire: fermata.v1.ExpireCommand.$Shape; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "purgeKeys"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys: fermata.v1.PurgeKeysCommand.$Shape; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "createTopic"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic: fermata.v1.CreateTopicCommand.$Shape; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "updateTopic"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic: fermata.v1.UpdateTopicCommand.$Shape; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "deleteTopic"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic: fermata.v1.DeleteTopicCommand.$Shape; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "createGroup"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup: fermata.v1.CreateGroupCommand.$Shape; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "deleteGroup"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup: fermata.v1.DeleteGroupCommand.$Shape; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "schedule"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule: fermata.v1.ScheduleCommand.$Shape; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "applyLimits"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits: fermata.v1.ApplyLimitsCommand.$Shape; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "purge"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge: fermata.v1.PurgeCommand.$Shape; redrive?: null; forgetPublishes?: null; updateGroup?: null }|{ kind?: "redrive"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive: fermata.v1.RedriveCommand.$Shape; forgetPublishes?: null; updateGroup?: null }|{ kind?: "forgetPublishes"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes: fermata.v1.ForgetPublishesCommand.$Shape; updateGroup?: null }|{ kind?: "updateGroup"; publish?: null; lease?: null; ack?: null; nack?: null; extend?: null; cancel?: null; reschedule?: null; expire?: null; purgeKeys?: null; createTopic?: null; updateTopic?: null; deleteTopic?: null; createGroup?: null; deleteGroup?: null; schedule?: null; applyLimits?: null; purge?: null; redrive?: null; forgetPublishes?: null; updateGroup: fermata.v1.UpdateGroupCommand.$Shape })
            );
        }

        interface IPublishCommand extends fermata.v1.PublishCommand.$Properties {
        }

        class PublishCommand {
            constructor(properties?: fermata.v1.PublishCommand.$Properties);
            $unknowns?: Uint8Array[];
            messages: fermata.v1.PublishMessage.$Properties[];
            firstId: Long;
            requests: fermata.v1.PublishRequestSpan.$Properties[];
            static create(properties: fermata.v1.PublishCommand.$Shape): fermata.v1.PublishCommand & fermata.v1.PublishCommand.$Shape;
            static create(properties?: fermata.v1.PublishCommand.$Properties): fermata.v1.PublishCommand;
            static encode(message: fermata.v1.PublishCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishCommand & fermata.v1.PublishCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishCommand {
            interface $Properties {
                messages?: (fermata.v1.PublishMessage.$Properties[]|null);
                firstId?: (Long|null);
                requests?: (fermata.v1.PublishRequestSpan.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              messages?: fermata.v1.PublishMessage.$Shape[]|null;
              firstId?: Long|null;
              requests?: fermata.v1.PublishRequestSpan.$Shape[]|null;
              $unknowns?: Uint8Array[];
            };
        }

        interface IPublishRequestSpan extends fermata.v1.PublishRequestSpan.$Properties {
        }

        class PublishRequestSpan {
            constructor(properties?: fermata.v1.PublishRequestSpan.$Properties);
            $unknowns?: Uint8Array[];
            idempotencyKey: string;
            count: number;
            static create(properties: fermata.v1.PublishRequestSpan.$Shape): fermata.v1.PublishRequestSpan & fermata.v1.PublishRequestSpan.$Shape;
            static create(properties?: fermata.v1.PublishRequestSpan.$Properties): fermata.v1.PublishRequestSpan;
            static encode(message: fermata.v1.PublishRequestSpan.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishRequestSpan & fermata.v1.PublishRequestSpan.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishRequestSpan {
            interface $Properties {
                idempotencyKey?: (string|null);
                count?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PublishRequestSpan.$Properties;
        }

        interface ILeaseCommand extends fermata.v1.LeaseCommand.$Properties {
        }

        class LeaseCommand {
            constructor(properties?: fermata.v1.LeaseCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            tags: Uint8Array[];
            leaseMs: Long;
            firstId: Long;
            idCount: number;
            aheadMs: Long;
            inPlace: boolean;
            deadLetterFallback: boolean;
            consumerId: Long;
            leaseId: Long;
            runs: fermata.v1.LeaseRun.$Properties[];
            static create(properties: fermata.v1.LeaseCommand.$Shape): fermata.v1.LeaseCommand & fermata.v1.LeaseCommand.$Shape;
            static create(properties?: fermata.v1.LeaseCommand.$Properties): fermata.v1.LeaseCommand;
            static encode(message: fermata.v1.LeaseCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.LeaseCommand & fermata.v1.LeaseCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace LeaseCommand {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                tags?: (Uint8Array[]|null);
                leaseMs?: (Long|null);
                firstId?: (Long|null);
                idCount?: (number|null);
                aheadMs?: (Long|null);
                inPlace?: (boolean|null);
                deadLetterFallback?: (boolean|null);
                consumerId?: (Long|null);
                leaseId?: (Long|null);
                runs?: (fermata.v1.LeaseRun.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.LeaseCommand.$Properties;
        }

        interface ILeaseRun extends fermata.v1.LeaseRun.$Properties {
        }

        class LeaseRun {
            constructor(properties?: fermata.v1.LeaseRun.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            tags: Uint8Array[];
            leaseMs: Long;
            leaseId: Long;
            consumerId: Long;
            deadLetterFallback: boolean;
            static create(properties: fermata.v1.LeaseRun.$Shape): fermata.v1.LeaseRun & fermata.v1.LeaseRun.$Shape;
            static create(properties?: fermata.v1.LeaseRun.$Properties): fermata.v1.LeaseRun;
            static encode(message: fermata.v1.LeaseRun.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.LeaseRun & fermata.v1.LeaseRun.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace LeaseRun {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                tags?: (Uint8Array[]|null);
                leaseMs?: (Long|null);
                leaseId?: (Long|null);
                consumerId?: (Long|null);
                deadLetterFallback?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.LeaseRun.$Properties;
        }

        interface IAckCommand extends fermata.v1.AckCommand.$Properties {
        }

        class AckCommand {
            constructor(properties?: fermata.v1.AckCommand.$Properties);
            $unknowns?: Uint8Array[];
            tags: Uint8Array[];
            static create(properties: fermata.v1.AckCommand.$Shape): fermata.v1.AckCommand & fermata.v1.AckCommand.$Shape;
            static create(properties?: fermata.v1.AckCommand.$Properties): fermata.v1.AckCommand;
            static encode(message: fermata.v1.AckCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.AckCommand & fermata.v1.AckCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace AckCommand {
            interface $Properties {
                tags?: (Uint8Array[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.AckCommand.$Properties;
        }

        interface INackCommand extends fermata.v1.NackCommand.$Properties {
        }

        class NackCommand {
            constructor(properties?: fermata.v1.NackCommand.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            delayMs: Long;
            uncounted: boolean;
            error: string;
            static create(properties: fermata.v1.NackCommand.$Shape): fermata.v1.NackCommand & fermata.v1.NackCommand.$Shape;
            static create(properties?: fermata.v1.NackCommand.$Properties): fermata.v1.NackCommand;
            static encode(message: fermata.v1.NackCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.NackCommand & fermata.v1.NackCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace NackCommand {
            interface $Properties {
                tag?: (Uint8Array|null);
                delayMs?: (Long|null);
                uncounted?: (boolean|null);
                error?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.NackCommand.$Properties;
        }

        interface IExtendCommand extends fermata.v1.ExtendCommand.$Properties {
        }

        class ExtendCommand {
            constructor(properties?: fermata.v1.ExtendCommand.$Properties);
            $unknowns?: Uint8Array[];
            tag: Uint8Array;
            leaseMs: Long;
            static create(properties: fermata.v1.ExtendCommand.$Shape): fermata.v1.ExtendCommand & fermata.v1.ExtendCommand.$Shape;
            static create(properties?: fermata.v1.ExtendCommand.$Properties): fermata.v1.ExtendCommand;
            static encode(message: fermata.v1.ExtendCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ExtendCommand & fermata.v1.ExtendCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ExtendCommand {
            interface $Properties {
                tag?: (Uint8Array|null);
                leaseMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ExtendCommand.$Properties;
        }

        interface ICancelCommand extends fermata.v1.CancelCommand.$Properties {
        }

        class CancelCommand {
            constructor(properties?: fermata.v1.CancelCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            id?: (Long|null);
            key?: (string|null);
            target?: ("id"|"key");
            static create(properties: fermata.v1.CancelCommand.$Shape): fermata.v1.CancelCommand & fermata.v1.CancelCommand.$Shape;
            static create(properties?: fermata.v1.CancelCommand.$Properties): fermata.v1.CancelCommand;
            static encode(message: fermata.v1.CancelCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CancelCommand & fermata.v1.CancelCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CancelCommand {
            interface $Properties {
                topic?: (string|null);
                id?: (Long|null);
                key?: (string|null);
                target?: ("id"|"key");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              topic?: string|null;
              id?: Long|null;
              key?: string|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ target?: undefined; id?: null; key?: null }|{ target?: "id"; id: Long; key?: null }|{ target?: "key"; id?: null; key: string })
            );
        }

        interface IRescheduleCommand extends fermata.v1.RescheduleCommand.$Properties {
        }

        class RescheduleCommand {
            constructor(properties?: fermata.v1.RescheduleCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            id?: (Long|null);
            key?: (string|null);
            delayMs?: (Long|null);
            deliverAtMs?: (Long|null);
            target?: ("id"|"key");
            schedule?: ("delayMs"|"deliverAtMs");
            static create(properties: fermata.v1.RescheduleCommand.$Shape): fermata.v1.RescheduleCommand & fermata.v1.RescheduleCommand.$Shape;
            static create(properties?: fermata.v1.RescheduleCommand.$Properties): fermata.v1.RescheduleCommand;
            static encode(message: fermata.v1.RescheduleCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RescheduleCommand & fermata.v1.RescheduleCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RescheduleCommand {
            interface $Properties {
                topic?: (string|null);
                id?: (Long|null);
                key?: (string|null);
                delayMs?: (Long|null);
                deliverAtMs?: (Long|null);
                target?: ("id"|"key");
                schedule?: ("delayMs"|"deliverAtMs");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              topic?: string|null;
              id?: Long|null;
              key?: string|null;
              delayMs?: Long|null;
              deliverAtMs?: Long|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ target?: undefined; id?: null; key?: null }|{ target?: "id"; id: Long; key?: null }|{ target?: "key"; id?: null; key: string })
            ) & (
              ({ schedule?: undefined; delayMs?: null; deliverAtMs?: null }|{ schedule?: "delayMs"; delayMs: Long; deliverAtMs?: null }|{ schedule?: "deliverAtMs"; delayMs?: null; deliverAtMs: Long })
            );
        }

        interface IExpireCommand extends fermata.v1.ExpireCommand.$Properties {
        }

        class ExpireCommand {
            constructor(properties?: fermata.v1.ExpireCommand.$Properties);
            $unknowns?: Uint8Array[];
            ids: Long[];
            deadLetterFallbackTopics: string[];
            firstId: Long;
            idCount: number;
            keys: Uint8Array[];
            atMs: Long[];
            static create(properties: fermata.v1.ExpireCommand.$Shape): fermata.v1.ExpireCommand & fermata.v1.ExpireCommand.$Shape;
            static create(properties?: fermata.v1.ExpireCommand.$Properties): fermata.v1.ExpireCommand;
            static encode(message: fermata.v1.ExpireCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ExpireCommand & fermata.v1.ExpireCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ExpireCommand {
            interface $Properties {
                ids?: (Long[]|null);
                deadLetterFallbackTopics?: (string[]|null);
                firstId?: (Long|null);
                idCount?: (number|null);
                keys?: (Uint8Array[]|null);
                atMs?: (Long[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ExpireCommand.$Properties;
        }

        interface IForgetPublishesCommand extends fermata.v1.ForgetPublishesCommand.$Properties {
        }

        class ForgetPublishesCommand {
            constructor(properties?: fermata.v1.ForgetPublishesCommand.$Properties);
            $unknowns?: Uint8Array[];
            firstIds: Long[];
            static create(properties: fermata.v1.ForgetPublishesCommand.$Shape): fermata.v1.ForgetPublishesCommand & fermata.v1.ForgetPublishesCommand.$Shape;
            static create(properties?: fermata.v1.ForgetPublishesCommand.$Properties): fermata.v1.ForgetPublishesCommand;
            static encode(message: fermata.v1.ForgetPublishesCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ForgetPublishesCommand & fermata.v1.ForgetPublishesCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ForgetPublishesCommand {
            interface $Properties {
                firstIds?: (Long[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ForgetPublishesCommand.$Properties;
        }

        interface ITopicKey extends fermata.v1.TopicKey.$Properties {
        }

        class TopicKey {
            constructor(properties?: fermata.v1.TopicKey.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            key: string;
            static create(properties: fermata.v1.TopicKey.$Shape): fermata.v1.TopicKey & fermata.v1.TopicKey.$Shape;
            static create(properties?: fermata.v1.TopicKey.$Properties): fermata.v1.TopicKey;
            static encode(message: fermata.v1.TopicKey.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TopicKey & fermata.v1.TopicKey.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TopicKey {
            interface $Properties {
                topic?: (string|null);
                key?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TopicKey.$Properties;
        }

        interface IPurgeKeysCommand extends fermata.v1.PurgeKeysCommand.$Properties {
        }

        class PurgeKeysCommand {
            constructor(properties?: fermata.v1.PurgeKeysCommand.$Properties);
            $unknowns?: Uint8Array[];
            keys: fermata.v1.TopicKey.$Properties[];
            requests: string[];
            static create(properties: fermata.v1.PurgeKeysCommand.$Shape): fermata.v1.PurgeKeysCommand & fermata.v1.PurgeKeysCommand.$Shape;
            static create(properties?: fermata.v1.PurgeKeysCommand.$Properties): fermata.v1.PurgeKeysCommand;
            static encode(message: fermata.v1.PurgeKeysCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PurgeKeysCommand & fermata.v1.PurgeKeysCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PurgeKeysCommand {
            interface $Properties {
                keys?: (fermata.v1.TopicKey.$Properties[]|null);
                requests?: (string[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PurgeKeysCommand.$Properties;
        }

        interface ICreateTopicCommand extends fermata.v1.CreateTopicCommand.$Properties {
        }

        class CreateTopicCommand {
            constructor(properties?: fermata.v1.CreateTopicCommand.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            settings?: (fermata.v1.TopicSettings.$Properties|null);
            static create(properties: fermata.v1.CreateTopicCommand.$Shape): fermata.v1.CreateTopicCommand & fermata.v1.CreateTopicCommand.$Shape;
            static create(properties?: fermata.v1.CreateTopicCommand.$Properties): fermata.v1.CreateTopicCommand;
            static encode(message: fermata.v1.CreateTopicCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CreateTopicCommand & fermata.v1.CreateTopicCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateTopicCommand {
            interface $Properties {
                name?: (string|null);
                settings?: (fermata.v1.TopicSettings.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CreateTopicCommand.$Properties;
        }

        interface IUpdateTopicCommand extends fermata.v1.UpdateTopicCommand.$Properties {
        }

        class UpdateTopicCommand {
            constructor(properties?: fermata.v1.UpdateTopicCommand.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            settings?: (fermata.v1.TopicSettings.$Properties|null);
            updateMask: string[];
            static create(properties: fermata.v1.UpdateTopicCommand.$Shape): fermata.v1.UpdateTopicCommand & fermata.v1.UpdateTopicCommand.$Shape;
            static create(properties?: fermata.v1.UpdateTopicCommand.$Properties): fermata.v1.UpdateTopicCommand;
            static encode(message: fermata.v1.UpdateTopicCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpdateTopicCommand & fermata.v1.UpdateTopicCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpdateTopicCommand {
            interface $Properties {
                name?: (string|null);
                settings?: (fermata.v1.TopicSettings.$Properties|null);
                updateMask?: (string[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpdateTopicCommand.$Properties;
        }

        interface IDeleteTopicCommand extends fermata.v1.DeleteTopicCommand.$Properties {
        }

        class DeleteTopicCommand {
            constructor(properties?: fermata.v1.DeleteTopicCommand.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            static create(properties: fermata.v1.DeleteTopicCommand.$Shape): fermata.v1.DeleteTopicCommand & fermata.v1.DeleteTopicCommand.$Shape;
            static create(properties?: fermata.v1.DeleteTopicCommand.$Properties): fermata.v1.DeleteTopicCommand;
            static encode(message: fermata.v1.DeleteTopicCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeleteTopicCommand & fermata.v1.DeleteTopicCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeleteTopicCommand {
            interface $Properties {
                name?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeleteTopicCommand.$Properties;
        }

        interface ICreateGroupCommand extends fermata.v1.CreateGroupCommand.$Properties {
        }

        class CreateGroupCommand {
            constructor(properties?: fermata.v1.CreateGroupCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            settings?: (fermata.v1.GroupSettings.$Properties|null);
            static create(properties: fermata.v1.CreateGroupCommand.$Shape): fermata.v1.CreateGroupCommand & fermata.v1.CreateGroupCommand.$Shape;
            static create(properties?: fermata.v1.CreateGroupCommand.$Properties): fermata.v1.CreateGroupCommand;
            static encode(message: fermata.v1.CreateGroupCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.CreateGroupCommand & fermata.v1.CreateGroupCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace CreateGroupCommand {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                settings?: (fermata.v1.GroupSettings.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.CreateGroupCommand.$Properties;
        }

        interface IUpdateGroupCommand extends fermata.v1.UpdateGroupCommand.$Properties {
        }

        class UpdateGroupCommand {
            constructor(properties?: fermata.v1.UpdateGroupCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            settings?: (fermata.v1.GroupSettings.$Properties|null);
            updateMask: string[];
            static create(properties: fermata.v1.UpdateGroupCommand.$Shape): fermata.v1.UpdateGroupCommand & fermata.v1.UpdateGroupCommand.$Shape;
            static create(properties?: fermata.v1.UpdateGroupCommand.$Properties): fermata.v1.UpdateGroupCommand;
            static encode(message: fermata.v1.UpdateGroupCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpdateGroupCommand & fermata.v1.UpdateGroupCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpdateGroupCommand {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                settings?: (fermata.v1.GroupSettings.$Properties|null);
                updateMask?: (string[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpdateGroupCommand.$Properties;
        }

        interface IDeleteGroupCommand extends fermata.v1.DeleteGroupCommand.$Properties {
        }

        class DeleteGroupCommand {
            constructor(properties?: fermata.v1.DeleteGroupCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            static create(properties: fermata.v1.DeleteGroupCommand.$Shape): fermata.v1.DeleteGroupCommand & fermata.v1.DeleteGroupCommand.$Shape;
            static create(properties?: fermata.v1.DeleteGroupCommand.$Properties): fermata.v1.DeleteGroupCommand;
            static encode(message: fermata.v1.DeleteGroupCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeleteGroupCommand & fermata.v1.DeleteGroupCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeleteGroupCommand {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeleteGroupCommand.$Properties;
        }

        interface IPurgeCommand extends fermata.v1.PurgeCommand.$Properties {
        }

        class PurgeCommand {
            constructor(properties?: fermata.v1.PurgeCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            maxRecords: number;
            static create(properties: fermata.v1.PurgeCommand.$Shape): fermata.v1.PurgeCommand & fermata.v1.PurgeCommand.$Shape;
            static create(properties?: fermata.v1.PurgeCommand.$Properties): fermata.v1.PurgeCommand;
            static encode(message: fermata.v1.PurgeCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PurgeCommand & fermata.v1.PurgeCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PurgeCommand {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                maxRecords?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PurgeCommand.$Properties;
        }

        interface IApplyLimitsCommand extends fermata.v1.ApplyLimitsCommand.$Properties {
        }

        class ApplyLimitsCommand {
            constructor(properties?: fermata.v1.ApplyLimitsCommand.$Properties);
            $unknowns?: Uint8Array[];
            values: { [k: string]: number };
            static create(properties: fermata.v1.ApplyLimitsCommand.$Shape): fermata.v1.ApplyLimitsCommand & fermata.v1.ApplyLimitsCommand.$Shape;
            static create(properties?: fermata.v1.ApplyLimitsCommand.$Properties): fermata.v1.ApplyLimitsCommand;
            static encode(message: fermata.v1.ApplyLimitsCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ApplyLimitsCommand & fermata.v1.ApplyLimitsCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ApplyLimitsCommand {
            interface $Properties {
                values?: ({ [k: string]: number }|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ApplyLimitsCommand.$Properties;
        }

        interface IRedriveCommand extends fermata.v1.RedriveCommand.$Properties {
        }

        class RedriveCommand {
            constructor(properties?: fermata.v1.RedriveCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            ids: Long[];
            firstId: Long;
            idCount: number;
            sourceTopic: string;
            static create(properties: fermata.v1.RedriveCommand.$Shape): fermata.v1.RedriveCommand & fermata.v1.RedriveCommand.$Shape;
            static create(properties?: fermata.v1.RedriveCommand.$Properties): fermata.v1.RedriveCommand;
            static encode(message: fermata.v1.RedriveCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RedriveCommand & fermata.v1.RedriveCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RedriveCommand {
            interface $Properties {
                topic?: (string|null);
                ids?: (Long[]|null);
                firstId?: (Long|null);
                idCount?: (number|null);
                sourceTopic?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RedriveCommand.$Properties;
        }

        class Schedules extends $protobuf.rpc.Service {
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): Schedules;
            upsertSchedule: fermata.v1.Schedules.UpsertSchedule;
            upsertSchedules: fermata.v1.Schedules.UpsertSchedules;
            getSchedule: fermata.v1.Schedules.GetSchedule;
            listSchedules: fermata.v1.Schedules.ListSchedules;
            pauseSchedule: fermata.v1.Schedules.PauseSchedule;
            resumeSchedule: fermata.v1.Schedules.ResumeSchedule;
            triggerSchedule: fermata.v1.Schedules.TriggerSchedule;
            deleteSchedule: fermata.v1.Schedules.DeleteSchedule;
        }

        namespace Schedules {
            type UpsertScheduleCallback = (error: (Error|null), response?: fermata.v1.UpsertScheduleResponse) => void;
            type UpsertSchedule = {
              (request: fermata.v1.IUpsertScheduleRequest, callback: fermata.v1.Schedules.UpsertScheduleCallback): void;
              (request: fermata.v1.IUpsertScheduleRequest): Promise<fermata.v1.UpsertScheduleResponse>;
              readonly name: "UpsertSchedule";
              readonly path: "/fermata.v1.Schedules/UpsertSchedule";
              readonly requestType: "UpsertScheduleRequest";
              readonly responseType: "UpsertScheduleResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type UpsertSchedulesCallback = (error: (Error|null), response?: fermata.v1.UpsertSchedulesResponse) => void;
            type UpsertSchedules = {
              (request: fermata.v1.IUpsertSchedulesRequest, callback: fermata.v1.Schedules.UpsertSchedulesCallback): void;
              (request: fermata.v1.IUpsertSchedulesRequest): Promise<fermata.v1.UpsertSchedulesResponse>;
              readonly name: "UpsertSchedules";
              readonly path: "/fermata.v1.Schedules/UpsertSchedules";
              readonly requestType: "UpsertSchedulesRequest";
              readonly responseType: "UpsertSchedulesResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type GetScheduleCallback = (error: (Error|null), response?: fermata.v1.GetScheduleResponse) => void;
            type GetSchedule = {
              (request: fermata.v1.IGetScheduleRequest, callback: fermata.v1.Schedules.GetScheduleCallback): void;
              (request: fermata.v1.IGetScheduleRequest): Promise<fermata.v1.GetScheduleResponse>;
              readonly name: "GetSchedule";
              readonly path: "/fermata.v1.Schedules/GetSchedule";
              readonly requestType: "GetScheduleRequest";
              readonly responseType: "GetScheduleResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type ListSchedulesCallback = (error: (Error|null), response?: fermata.v1.ListSchedulesResponse) => void;
            type ListSchedules = {
              (request: fermata.v1.IListSchedulesRequest, callback: fermata.v1.Schedules.ListSchedulesCallback): void;
              (request: fermata.v1.IListSchedulesRequest): Promise<fermata.v1.ListSchedulesResponse>;
              readonly name: "ListSchedules";
              readonly path: "/fermata.v1.Schedules/ListSchedules";
              readonly requestType: "ListSchedulesRequest";
              readonly responseType: "ListSchedulesResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type PauseScheduleCallback = (error: (Error|null), response?: fermata.v1.ScheduleStatusResponse) => void;
            type PauseSchedule = {
              (request: fermata.v1.IScheduleRef, callback: fermata.v1.Schedules.PauseScheduleCallback): void;
              (request: fermata.v1.IScheduleRef): Promise<fermata.v1.ScheduleStatusResponse>;
              readonly name: "PauseSchedule";
              readonly path: "/fermata.v1.Schedules/PauseSchedule";
              readonly requestType: "ScheduleRef";
              readonly responseType: "ScheduleStatusResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type ResumeScheduleCallback = (error: (Error|null), response?: fermata.v1.ScheduleStatusResponse) => void;
            type ResumeSchedule = {
              (request: fermata.v1.IScheduleRef, callback: fermata.v1.Schedules.ResumeScheduleCallback): void;
              (request: fermata.v1.IScheduleRef): Promise<fermata.v1.ScheduleStatusResponse>;
              readonly name: "ResumeSchedule";
              readonly path: "/fermata.v1.Schedules/ResumeSchedule";
              readonly requestType: "ScheduleRef";
              readonly responseType: "ScheduleStatusResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type TriggerScheduleCallback = (error: (Error|null), response?: fermata.v1.TriggerScheduleResponse) => void;
            type TriggerSchedule = {
              (request: fermata.v1.IScheduleRef, callback: fermata.v1.Schedules.TriggerScheduleCallback): void;
              (request: fermata.v1.IScheduleRef): Promise<fermata.v1.TriggerScheduleResponse>;
              readonly name: "TriggerSchedule";
              readonly path: "/fermata.v1.Schedules/TriggerSchedule";
              readonly requestType: "ScheduleRef";
              readonly responseType: "TriggerScheduleResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
            type DeleteScheduleCallback = (error: (Error|null), response?: fermata.v1.ScheduleStatusResponse) => void;
            type DeleteSchedule = {
              (request: fermata.v1.IScheduleRef, callback: fermata.v1.Schedules.DeleteScheduleCallback): void;
              (request: fermata.v1.IScheduleRef): Promise<fermata.v1.ScheduleStatusResponse>;
              readonly name: "DeleteSchedule";
              readonly path: "/fermata.v1.Schedules/DeleteSchedule";
              readonly requestType: "ScheduleRef";
              readonly responseType: "ScheduleStatusResponse";
              readonly requestStream: undefined;
              readonly responseStream: undefined;
            };
        }

        enum CatchUp {
            CATCH_UP_UNSPECIFIED = 0,
            CATCH_UP_NONE = 1,
            CATCH_UP_LATEST = 2,
            CATCH_UP_ALL = 3
        }

        enum DstPolicy {
            DST_POLICY_UNSPECIFIED = 0,
            DST_POLICY_ONCE = 1,
            DST_POLICY_BOTH = 2
        }

        interface IScheduleDefinition extends fermata.v1.ScheduleDefinition.$Properties {
        }

        class ScheduleDefinition {
            constructor(properties?: fermata.v1.ScheduleDefinition.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            name: string;
            spec: string;
            timeZone: string;
            payload: Uint8Array;
            headers: { [k: string]: string };
            keyTemplate: string;
            startAtMs: Long;
            endAtMs: Long;
            jitterMs: Long;
            catchUp: fermata.v1.CatchUp;
            dstPolicy: fermata.v1.DstPolicy;
            misfireThresholdMs: Long;
            paused: boolean;
            static create(properties: fermata.v1.ScheduleDefinition.$Shape): fermata.v1.ScheduleDefinition & fermata.v1.ScheduleDefinition.$Shape;
            static create(properties?: fermata.v1.ScheduleDefinition.$Properties): fermata.v1.ScheduleDefinition;
            static encode(message: fermata.v1.ScheduleDefinition.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleDefinition & fermata.v1.ScheduleDefinition.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleDefinition {
            interface $Properties {
                topic?: (string|null);
                name?: (string|null);
                spec?: (string|null);
                timeZone?: (string|null);
                payload?: (Uint8Array|null);
                headers?: ({ [k: string]: string }|null);
                keyTemplate?: (string|null);
                startAtMs?: (Long|null);
                endAtMs?: (Long|null);
                jitterMs?: (Long|null);
                catchUp?: (fermata.v1.CatchUp|null);
                dstPolicy?: (fermata.v1.DstPolicy|null);
                misfireThresholdMs?: (Long|null);
                paused?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ScheduleDefinition.$Properties;
        }

        interface IScheduleRecord extends fermata.v1.ScheduleRecord.$Properties {
        }

        class ScheduleRecord {
            constructor(properties?: fermata.v1.ScheduleRecord.$Properties);
            $unknowns?: Uint8Array[];
            definition?: (fermata.v1.ScheduleDefinition.$Properties|null);
            paused: boolean;
            cursorMs: Long;
            generation: Long;
            createdAtMs: Long;
            updatedAtMs: Long;
            fired: Long;
            skipped: Long;
            lastFiredMs: Long;
            owner: string;
            static create(properties: fermata.v1.ScheduleRecord.$Shape): fermata.v1.ScheduleRecord & fermata.v1.ScheduleRecord.$Shape;
            static create(properties?: fermata.v1.ScheduleRecord.$Properties): fermata.v1.ScheduleRecord;
            static encode(message: fermata.v1.ScheduleRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleRecord & fermata.v1.ScheduleRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleRecord {
            interface $Properties {
                definition?: (fermata.v1.ScheduleDefinition.$Properties|null);
                paused?: (boolean|null);
                cursorMs?: (Long|null);
                generation?: (Long|null);
                createdAtMs?: (Long|null);
                updatedAtMs?: (Long|null);
                fired?: (Long|null);
                skipped?: (Long|null);
                lastFiredMs?: (Long|null);
                owner?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ScheduleRecord.$Properties;
        }

        interface IScheduleRefCommand extends fermata.v1.ScheduleRefCommand.$Properties {
        }

        class ScheduleRefCommand {
            constructor(properties?: fermata.v1.ScheduleRefCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            name: string;
            static create(properties: fermata.v1.ScheduleRefCommand.$Shape): fermata.v1.ScheduleRefCommand & fermata.v1.ScheduleRefCommand.$Shape;
            static create(properties?: fermata.v1.ScheduleRefCommand.$Properties): fermata.v1.ScheduleRefCommand;
            static encode(message: fermata.v1.ScheduleRefCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleRefCommand & fermata.v1.ScheduleRefCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleRefCommand {
            interface $Properties {
                topic?: (string|null);
                name?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ScheduleRefCommand.$Properties;
        }

        interface IScheduleFire extends fermata.v1.ScheduleFire.$Properties {
        }

        class ScheduleFire {
            constructor(properties?: fermata.v1.ScheduleFire.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            name: string;
            generation: Long;
            afterMs: Long;
            skipToMs: Long;
            skipped: number;
            occurrences: Long[];
            static create(properties: fermata.v1.ScheduleFire.$Shape): fermata.v1.ScheduleFire & fermata.v1.ScheduleFire.$Shape;
            static create(properties?: fermata.v1.ScheduleFire.$Properties): fermata.v1.ScheduleFire;
            static encode(message: fermata.v1.ScheduleFire.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleFire & fermata.v1.ScheduleFire.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleFire {
            interface $Properties {
                topic?: (string|null);
                name?: (string|null);
                generation?: (Long|null);
                afterMs?: (Long|null);
                skipToMs?: (Long|null);
                skipped?: (number|null);
                occurrences?: (Long[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ScheduleFire.$Properties;
        }

        interface IFireSchedulesCommand extends fermata.v1.FireSchedulesCommand.$Properties {
        }

        class FireSchedulesCommand {
            constructor(properties?: fermata.v1.FireSchedulesCommand.$Properties);
            $unknowns?: Uint8Array[];
            fires: fermata.v1.ScheduleFire.$Properties[];
            firstId: Long;
            static create(properties: fermata.v1.FireSchedulesCommand.$Shape): fermata.v1.FireSchedulesCommand & fermata.v1.FireSchedulesCommand.$Shape;
            static create(properties?: fermata.v1.FireSchedulesCommand.$Properties): fermata.v1.FireSchedulesCommand;
            static encode(message: fermata.v1.FireSchedulesCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.FireSchedulesCommand & fermata.v1.FireSchedulesCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace FireSchedulesCommand {
            interface $Properties {
                fires?: (fermata.v1.ScheduleFire.$Properties[]|null);
                firstId?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.FireSchedulesCommand.$Properties;
        }

        interface IScheduleCommand extends fermata.v1.ScheduleCommand.$Properties {
        }

        class ScheduleCommand {
            constructor(properties?: fermata.v1.ScheduleCommand.$Properties);
            $unknowns?: Uint8Array[];
            upsert?: (fermata.v1.ScheduleDefinition.$Properties|null);
            delete?: (fermata.v1.ScheduleRefCommand.$Properties|null);
            pause?: (fermata.v1.ScheduleRefCommand.$Properties|null);
            resume?: (fermata.v1.ScheduleRefCommand.$Properties|null);
            trigger?: (fermata.v1.TriggerScheduleCommand.$Properties|null);
            fire?: (fermata.v1.FireSchedulesCommand.$Properties|null);
            upsertMany?: (fermata.v1.UpsertSchedulesCommand.$Properties|null);
            owner: string;
            ownerLimit: number;
            op?: ("upsert"|"delete"|"pause"|"resume"|"trigger"|"fire"|"upsertMany");
            static create(properties: fermata.v1.ScheduleCommand.$Shape): fermata.v1.ScheduleCommand & fermata.v1.ScheduleCommand.$Shape;
            static create(properties?: fermata.v1.ScheduleCommand.$Properties): fermata.v1.ScheduleCommand;
            static encode(message: fermata.v1.ScheduleCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleCommand & fermata.v1.ScheduleCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleCommand {
            interface $Properties {
                upsert?: (fermata.v1.ScheduleDefinition.$Properties|null);
                "delete"?: (fermata.v1.ScheduleRefCommand.$Properties|null);
                pause?: (fermata.v1.ScheduleRefCommand.$Properties|null);
                resume?: (fermata.v1.ScheduleRefCommand.$Properties|null);
                trigger?: (fermata.v1.TriggerScheduleCommand.$Properties|null);
                fire?: (fermata.v1.FireSchedulesCommand.$Properties|null);
                upsertMany?: (fermata.v1.UpsertSchedulesCommand.$Properties|null);
                owner?: (string|null);
                ownerLimit?: (number|null);
                op?: ("upsert"|"delete"|"pause"|"resume"|"trigger"|"fire"|"upsertMany");
                $unknowns?: Uint8Array[];
            }
            type $Shape = {
              upsert?: fermata.v1.ScheduleDefinition.$Shape|null;
              "delete"?: fermata.v1.ScheduleRefCommand.$Shape|null;
              pause?: fermata.v1.ScheduleRefCommand.$Shape|null;
              resume?: fermata.v1.ScheduleRefCommand.$Shape|null;
              trigger?: fermata.v1.TriggerScheduleCommand.$Shape|null;
              fire?: fermata.v1.FireSchedulesCommand.$Shape|null;
              upsertMany?: fermata.v1.UpsertSchedulesCommand.$Shape|null;
              owner?: string|null;
              ownerLimit?: number|null;
              $unknowns?: Uint8Array[];
            } & (
              ({ op?: undefined; upsert?: null; "delete"?: null; pause?: null; resume?: null; trigger?: null; fire?: null; upsertMany?: null }|{ op?: "upsert"; upsert: fermata.v1.ScheduleDefinition.$Shape; "delete"?: null; pause?: null; resume?: null; trigger?: null; fire?: null; upsertMany?: null }|{ op?: "delete"; upsert?: null; "delete": fermata.v1.ScheduleRefCommand.$Shape; pause?: null; resume?: null; trigger?: null; fire?: null; upsertMany?: null }|{ op?: "pause"; upsert?: null; "delete"?: null; pause: fermata.v1.ScheduleRefCommand.$Shape; resume?: null; trigger?: null; fire?: null; upsertMany?: null }|{ op?: "resume"; upsert?: null; "delete"?: null; pause?: null; resume: fermata.v1.ScheduleRefCommand.$Shape; trigger?: null; fire?: null; upsertMany?: null }|{ op?: "trigger"; upsert?: null; "delete"?: null; pause?: null; resume?: null; trigger: fermata.v1.TriggerScheduleCommand.$Shape; fire?: null; upsertMany?: null }|{ op?: "fire"; upsert?: null; "delete"?: null; pause?: null; resume?: null; trigger?: null; fire: fermata.v1.FireSchedulesCommand.$Shape; upsertMany?: null }|{ op?: "upsertMany"; upsert?: null; "delete"?: null; pause?: null; resume?: null; trigger?: null; fire?: null; upsertMany: fermata.v1.UpsertSchedulesCommand.$Shape })
            );
        }

        interface IUpsertSchedulesCommand extends fermata.v1.UpsertSchedulesCommand.$Properties {
        }

        class UpsertSchedulesCommand {
            constructor(properties?: fermata.v1.UpsertSchedulesCommand.$Properties);
            $unknowns?: Uint8Array[];
            schedules: fermata.v1.ScheduleDefinition.$Properties[];
            static create(properties: fermata.v1.UpsertSchedulesCommand.$Shape): fermata.v1.UpsertSchedulesCommand & fermata.v1.UpsertSchedulesCommand.$Shape;
            static create(properties?: fermata.v1.UpsertSchedulesCommand.$Properties): fermata.v1.UpsertSchedulesCommand;
            static encode(message: fermata.v1.UpsertSchedulesCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpsertSchedulesCommand & fermata.v1.UpsertSchedulesCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpsertSchedulesCommand {
            interface $Properties {
                schedules?: (fermata.v1.ScheduleDefinition.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpsertSchedulesCommand.$Properties;
        }

        interface ITriggerScheduleCommand extends fermata.v1.TriggerScheduleCommand.$Properties {
        }

        class TriggerScheduleCommand {
            constructor(properties?: fermata.v1.TriggerScheduleCommand.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            name: string;
            firstId: Long;
            static create(properties: fermata.v1.TriggerScheduleCommand.$Shape): fermata.v1.TriggerScheduleCommand & fermata.v1.TriggerScheduleCommand.$Shape;
            static create(properties?: fermata.v1.TriggerScheduleCommand.$Properties): fermata.v1.TriggerScheduleCommand;
            static encode(message: fermata.v1.TriggerScheduleCommand.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TriggerScheduleCommand & fermata.v1.TriggerScheduleCommand.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TriggerScheduleCommand {
            interface $Properties {
                topic?: (string|null);
                name?: (string|null);
                firstId?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TriggerScheduleCommand.$Properties;
        }

        interface ISchedule extends fermata.v1.Schedule.$Properties {
        }

        class Schedule {
            constructor(properties?: fermata.v1.Schedule.$Properties);
            $unknowns?: Uint8Array[];
            definition?: (fermata.v1.ScheduleDefinition.$Properties|null);
            paused: boolean;
            createdAtMs: Long;
            updatedAtMs: Long;
            fired: Long;
            skipped: Long;
            lastFiredMs: Long;
            nextFireMs: Long[];
            broken: string;
            static create(properties: fermata.v1.Schedule.$Shape): fermata.v1.Schedule & fermata.v1.Schedule.$Shape;
            static create(properties?: fermata.v1.Schedule.$Properties): fermata.v1.Schedule;
            static encode(message: fermata.v1.Schedule.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.Schedule & fermata.v1.Schedule.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace Schedule {
            interface $Properties {
                definition?: (fermata.v1.ScheduleDefinition.$Properties|null);
                paused?: (boolean|null);
                createdAtMs?: (Long|null);
                updatedAtMs?: (Long|null);
                fired?: (Long|null);
                skipped?: (Long|null);
                lastFiredMs?: (Long|null);
                nextFireMs?: (Long[]|null);
                broken?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.Schedule.$Properties;
        }

        interface IUpsertScheduleRequest extends fermata.v1.UpsertScheduleRequest.$Properties {
        }

        class UpsertScheduleRequest {
            constructor(properties?: fermata.v1.UpsertScheduleRequest.$Properties);
            $unknowns?: Uint8Array[];
            schedule?: (fermata.v1.ScheduleDefinition.$Properties|null);
            static create(properties: fermata.v1.UpsertScheduleRequest.$Shape): fermata.v1.UpsertScheduleRequest & fermata.v1.UpsertScheduleRequest.$Shape;
            static create(properties?: fermata.v1.UpsertScheduleRequest.$Properties): fermata.v1.UpsertScheduleRequest;
            static encode(message: fermata.v1.UpsertScheduleRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpsertScheduleRequest & fermata.v1.UpsertScheduleRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpsertScheduleRequest {
            interface $Properties {
                schedule?: (fermata.v1.ScheduleDefinition.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpsertScheduleRequest.$Properties;
        }

        interface IUpsertScheduleResponse extends fermata.v1.UpsertScheduleResponse.$Properties {
        }

        class UpsertScheduleResponse {
            constructor(properties?: fermata.v1.UpsertScheduleResponse.$Properties);
            $unknowns?: Uint8Array[];
            schedule?: (fermata.v1.Schedule.$Properties|null);
            created: boolean;
            static create(properties: fermata.v1.UpsertScheduleResponse.$Shape): fermata.v1.UpsertScheduleResponse & fermata.v1.UpsertScheduleResponse.$Shape;
            static create(properties?: fermata.v1.UpsertScheduleResponse.$Properties): fermata.v1.UpsertScheduleResponse;
            static encode(message: fermata.v1.UpsertScheduleResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpsertScheduleResponse & fermata.v1.UpsertScheduleResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpsertScheduleResponse {
            interface $Properties {
                schedule?: (fermata.v1.Schedule.$Properties|null);
                created?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpsertScheduleResponse.$Properties;
        }

        interface IUpsertSchedulesRequest extends fermata.v1.UpsertSchedulesRequest.$Properties {
        }

        class UpsertSchedulesRequest {
            constructor(properties?: fermata.v1.UpsertSchedulesRequest.$Properties);
            $unknowns?: Uint8Array[];
            schedules: fermata.v1.ScheduleDefinition.$Properties[];
            static create(properties: fermata.v1.UpsertSchedulesRequest.$Shape): fermata.v1.UpsertSchedulesRequest & fermata.v1.UpsertSchedulesRequest.$Shape;
            static create(properties?: fermata.v1.UpsertSchedulesRequest.$Properties): fermata.v1.UpsertSchedulesRequest;
            static encode(message: fermata.v1.UpsertSchedulesRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpsertSchedulesRequest & fermata.v1.UpsertSchedulesRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpsertSchedulesRequest {
            interface $Properties {
                schedules?: (fermata.v1.ScheduleDefinition.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpsertSchedulesRequest.$Properties;
        }

        interface IUpsertSchedulesResponse extends fermata.v1.UpsertSchedulesResponse.$Properties {
        }

        class UpsertSchedulesResponse {
            constructor(properties?: fermata.v1.UpsertSchedulesResponse.$Properties);
            $unknowns?: Uint8Array[];
            results: fermata.v1.UpsertScheduleResponse.$Properties[];
            static create(properties: fermata.v1.UpsertSchedulesResponse.$Shape): fermata.v1.UpsertSchedulesResponse & fermata.v1.UpsertSchedulesResponse.$Shape;
            static create(properties?: fermata.v1.UpsertSchedulesResponse.$Properties): fermata.v1.UpsertSchedulesResponse;
            static encode(message: fermata.v1.UpsertSchedulesResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.UpsertSchedulesResponse & fermata.v1.UpsertSchedulesResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace UpsertSchedulesResponse {
            interface $Properties {
                results?: (fermata.v1.UpsertScheduleResponse.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.UpsertSchedulesResponse.$Properties;
        }

        interface IGetScheduleRequest extends fermata.v1.GetScheduleRequest.$Properties {
        }

        class GetScheduleRequest {
            constructor(properties?: fermata.v1.GetScheduleRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            name: string;
            next: number;
            static create(properties: fermata.v1.GetScheduleRequest.$Shape): fermata.v1.GetScheduleRequest & fermata.v1.GetScheduleRequest.$Shape;
            static create(properties?: fermata.v1.GetScheduleRequest.$Properties): fermata.v1.GetScheduleRequest;
            static encode(message: fermata.v1.GetScheduleRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetScheduleRequest & fermata.v1.GetScheduleRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetScheduleRequest {
            interface $Properties {
                topic?: (string|null);
                name?: (string|null);
                next?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetScheduleRequest.$Properties;
        }

        interface IGetScheduleResponse extends fermata.v1.GetScheduleResponse.$Properties {
        }

        class GetScheduleResponse {
            constructor(properties?: fermata.v1.GetScheduleResponse.$Properties);
            $unknowns?: Uint8Array[];
            schedule?: (fermata.v1.Schedule.$Properties|null);
            static create(properties: fermata.v1.GetScheduleResponse.$Shape): fermata.v1.GetScheduleResponse & fermata.v1.GetScheduleResponse.$Shape;
            static create(properties?: fermata.v1.GetScheduleResponse.$Properties): fermata.v1.GetScheduleResponse;
            static encode(message: fermata.v1.GetScheduleResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GetScheduleResponse & fermata.v1.GetScheduleResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GetScheduleResponse {
            interface $Properties {
                schedule?: (fermata.v1.Schedule.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GetScheduleResponse.$Properties;
        }

        interface IListSchedulesRequest extends fermata.v1.ListSchedulesRequest.$Properties {
        }

        class ListSchedulesRequest {
            constructor(properties?: fermata.v1.ListSchedulesRequest.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            afterName: string;
            limit: number;
            next: number;
            static create(properties: fermata.v1.ListSchedulesRequest.$Shape): fermata.v1.ListSchedulesRequest & fermata.v1.ListSchedulesRequest.$Shape;
            static create(properties?: fermata.v1.ListSchedulesRequest.$Properties): fermata.v1.ListSchedulesRequest;
            static encode(message: fermata.v1.ListSchedulesRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListSchedulesRequest & fermata.v1.ListSchedulesRequest.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListSchedulesRequest {
            interface $Properties {
                topic?: (string|null);
                afterName?: (string|null);
                limit?: (number|null);
                next?: (number|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListSchedulesRequest.$Properties;
        }

        interface IListSchedulesResponse extends fermata.v1.ListSchedulesResponse.$Properties {
        }

        class ListSchedulesResponse {
            constructor(properties?: fermata.v1.ListSchedulesResponse.$Properties);
            $unknowns?: Uint8Array[];
            schedules: fermata.v1.Schedule.$Properties[];
            static create(properties: fermata.v1.ListSchedulesResponse.$Shape): fermata.v1.ListSchedulesResponse & fermata.v1.ListSchedulesResponse.$Shape;
            static create(properties?: fermata.v1.ListSchedulesResponse.$Properties): fermata.v1.ListSchedulesResponse;
            static encode(message: fermata.v1.ListSchedulesResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ListSchedulesResponse & fermata.v1.ListSchedulesResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ListSchedulesResponse {
            interface $Properties {
                schedules?: (fermata.v1.Schedule.$Properties[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ListSchedulesResponse.$Properties;
        }

        interface IScheduleRef extends fermata.v1.ScheduleRef.$Properties {
        }

        class ScheduleRef {
            constructor(properties?: fermata.v1.ScheduleRef.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            name: string;
            static create(properties: fermata.v1.ScheduleRef.$Shape): fermata.v1.ScheduleRef & fermata.v1.ScheduleRef.$Shape;
            static create(properties?: fermata.v1.ScheduleRef.$Properties): fermata.v1.ScheduleRef;
            static encode(message: fermata.v1.ScheduleRef.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleRef & fermata.v1.ScheduleRef.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleRef {
            interface $Properties {
                topic?: (string|null);
                name?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ScheduleRef.$Properties;
        }

        enum ScheduleStatus {
            SCHEDULE_STATUS_UNSPECIFIED = 0,
            SCHEDULE_STATUS_DONE = 1,
            SCHEDULE_STATUS_NOT_FOUND = 2,
            SCHEDULE_STATUS_UNCHANGED = 3
        }

        interface IScheduleStatusResponse extends fermata.v1.ScheduleStatusResponse.$Properties {
        }

        class ScheduleStatusResponse {
            constructor(properties?: fermata.v1.ScheduleStatusResponse.$Properties);
            $unknowns?: Uint8Array[];
            status: fermata.v1.ScheduleStatus;
            schedule?: (fermata.v1.Schedule.$Properties|null);
            static create(properties: fermata.v1.ScheduleStatusResponse.$Shape): fermata.v1.ScheduleStatusResponse & fermata.v1.ScheduleStatusResponse.$Shape;
            static create(properties?: fermata.v1.ScheduleStatusResponse.$Properties): fermata.v1.ScheduleStatusResponse;
            static encode(message: fermata.v1.ScheduleStatusResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.ScheduleStatusResponse & fermata.v1.ScheduleStatusResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace ScheduleStatusResponse {
            interface $Properties {
                status?: (fermata.v1.ScheduleStatus|null);
                schedule?: (fermata.v1.Schedule.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.ScheduleStatusResponse.$Properties;
        }

        interface ITriggerScheduleResponse extends fermata.v1.TriggerScheduleResponse.$Properties {
        }

        class TriggerScheduleResponse {
            constructor(properties?: fermata.v1.TriggerScheduleResponse.$Properties);
            $unknowns?: Uint8Array[];
            status: fermata.v1.ScheduleStatus;
            id: Long;
            dueAtMs: Long;
            static create(properties: fermata.v1.TriggerScheduleResponse.$Shape): fermata.v1.TriggerScheduleResponse & fermata.v1.TriggerScheduleResponse.$Shape;
            static create(properties?: fermata.v1.TriggerScheduleResponse.$Properties): fermata.v1.TriggerScheduleResponse;
            static encode(message: fermata.v1.TriggerScheduleResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TriggerScheduleResponse & fermata.v1.TriggerScheduleResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TriggerScheduleResponse {
            interface $Properties {
                status?: (fermata.v1.ScheduleStatus|null);
                id?: (Long|null);
                dueAtMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TriggerScheduleResponse.$Properties;
        }

        class Raft extends $protobuf.rpc.Service {
            constructor(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean);
            static create(rpcImpl: $protobuf.RPCImpl, requestDelimited?: boolean, responseDelimited?: boolean): Raft;
            sendMessages: fermata.v1.Raft.SendMessages;
            installSnapshot: fermata.v1.Raft.InstallSnapshot;
        }

        namespace Raft {
            type SendMessagesCallback = (error: (Error|null), response?: fermata.v1.RaftBatchResponse) => void;
            type SendMessages = {
              (request: fermata.v1.IRaftBatch, callback: fermata.v1.Raft.SendMessagesCallback): void;
              (request: fermata.v1.IRaftBatch): Promise<fermata.v1.RaftBatchResponse>;
              readonly name: "SendMessages";
              readonly path: "/fermata.v1.Raft/SendMessages";
              readonly requestType: "RaftBatch";
              readonly responseType: "RaftBatchResponse";
              readonly requestStream: true;
              readonly responseStream: undefined;
            };
            type InstallSnapshotCallback = (error: (Error|null), response?: fermata.v1.InstallSnapshotResponse) => void;
            type InstallSnapshot = {
              (request: fermata.v1.ISnapshotChunk, callback: fermata.v1.Raft.InstallSnapshotCallback): void;
              (request: fermata.v1.ISnapshotChunk): Promise<fermata.v1.InstallSnapshotResponse>;
              readonly name: "InstallSnapshot";
              readonly path: "/fermata.v1.Raft/InstallSnapshot";
              readonly requestType: "SnapshotChunk";
              readonly responseType: "InstallSnapshotResponse";
              readonly requestStream: true;
              readonly responseStream: undefined;
            };
        }

        enum RaftMessageType {
            RAFT_MESSAGE_TYPE_UNSPECIFIED = 0,
            RAFT_MESSAGE_TYPE_APPEND = 1,
            RAFT_MESSAGE_TYPE_APPEND_RESPONSE = 2,
            RAFT_MESSAGE_TYPE_VOTE = 3,
            RAFT_MESSAGE_TYPE_VOTE_RESPONSE = 4,
            RAFT_MESSAGE_TYPE_PRE_VOTE = 5,
            RAFT_MESSAGE_TYPE_PRE_VOTE_RESPONSE = 6,
            RAFT_MESSAGE_TYPE_HEARTBEAT = 7,
            RAFT_MESSAGE_TYPE_HEARTBEAT_RESPONSE = 8,
            RAFT_MESSAGE_TYPE_SNAPSHOT = 9,
            RAFT_MESSAGE_TYPE_TIMEOUT_NOW = 10,
            RAFT_MESSAGE_TYPE_READ_INDEX = 11,
            RAFT_MESSAGE_TYPE_READ_INDEX_RESPONSE = 12
        }

        enum RaftEntryType {
            RAFT_ENTRY_TYPE_NORMAL = 0,
            RAFT_ENTRY_TYPE_CONF_CHANGE = 1
        }

        interface IRaftEntry extends fermata.v1.RaftEntry.$Properties {
        }

        class RaftEntry {
            constructor(properties?: fermata.v1.RaftEntry.$Properties);
            $unknowns?: Uint8Array[];
            term: Long;
            index: Long;
            type: fermata.v1.RaftEntryType;
            data: Uint8Array;
            static create(properties: fermata.v1.RaftEntry.$Shape): fermata.v1.RaftEntry & fermata.v1.RaftEntry.$Shape;
            static create(properties?: fermata.v1.RaftEntry.$Properties): fermata.v1.RaftEntry;
            static encode(message: fermata.v1.RaftEntry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RaftEntry & fermata.v1.RaftEntry.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftEntry {
            interface $Properties {
                term?: (Long|null);
                index?: (Long|null);
                type?: (fermata.v1.RaftEntryType|null);
                data?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RaftEntry.$Properties;
        }

        interface IRaftConfState extends fermata.v1.RaftConfState.$Properties {
        }

        class RaftConfState {
            constructor(properties?: fermata.v1.RaftConfState.$Properties);
            $unknowns?: Uint8Array[];
            voters: string[];
            learners: string[];
            static create(properties: fermata.v1.RaftConfState.$Shape): fermata.v1.RaftConfState & fermata.v1.RaftConfState.$Shape;
            static create(properties?: fermata.v1.RaftConfState.$Properties): fermata.v1.RaftConfState;
            static encode(message: fermata.v1.RaftConfState.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RaftConfState & fermata.v1.RaftConfState.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftConfState {
            interface $Properties {
                voters?: (string[]|null);
                learners?: (string[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RaftConfState.$Properties;
        }

        interface IRaftSnapshotMeta extends fermata.v1.RaftSnapshotMeta.$Properties {
        }

        class RaftSnapshotMeta {
            constructor(properties?: fermata.v1.RaftSnapshotMeta.$Properties);
            $unknowns?: Uint8Array[];
            index: Long;
            term: Long;
            conf?: (fermata.v1.RaftConfState.$Properties|null);
            static create(properties: fermata.v1.RaftSnapshotMeta.$Shape): fermata.v1.RaftSnapshotMeta & fermata.v1.RaftSnapshotMeta.$Shape;
            static create(properties?: fermata.v1.RaftSnapshotMeta.$Properties): fermata.v1.RaftSnapshotMeta;
            static encode(message: fermata.v1.RaftSnapshotMeta.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RaftSnapshotMeta & fermata.v1.RaftSnapshotMeta.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftSnapshotMeta {
            interface $Properties {
                index?: (Long|null);
                term?: (Long|null);
                conf?: (fermata.v1.RaftConfState.$Properties|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RaftSnapshotMeta.$Properties;
        }

        interface IRaftMessage extends fermata.v1.RaftMessage.$Properties {
        }

        class RaftMessage {
            constructor(properties?: fermata.v1.RaftMessage.$Properties);
            $unknowns?: Uint8Array[];
            type: fermata.v1.RaftMessageType;
            from: string;
            to: string;
            term: Long;
            logTerm: Long;
            index: Long;
            entries: fermata.v1.RaftEntry.$Properties[];
            commit: Long;
            reject: boolean;
            rejectHint: Long;
            hintTerm: Long;
            snapshot?: (fermata.v1.RaftSnapshotMeta.$Properties|null);
            context?: (Uint8Array|null);
            wallTimeMs: Long;
            static create(properties: fermata.v1.RaftMessage.$Shape): fermata.v1.RaftMessage & fermata.v1.RaftMessage.$Shape;
            static create(properties?: fermata.v1.RaftMessage.$Properties): fermata.v1.RaftMessage;
            static encode(message: fermata.v1.RaftMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RaftMessage & fermata.v1.RaftMessage.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftMessage {
            interface $Properties {
                type?: (fermata.v1.RaftMessageType|null);
                from?: (string|null);
                to?: (string|null);
                term?: (Long|null);
                logTerm?: (Long|null);
                index?: (Long|null);
                entries?: (fermata.v1.RaftEntry.$Properties[]|null);
                commit?: (Long|null);
                reject?: (boolean|null);
                rejectHint?: (Long|null);
                hintTerm?: (Long|null);
                snapshot?: (fermata.v1.RaftSnapshotMeta.$Properties|null);
                context?: (Uint8Array|null);
                wallTimeMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RaftMessage.$Properties;
        }

        interface IRaftBatch extends fermata.v1.RaftBatch.$Properties {
        }

        class RaftBatch {
            constructor(properties?: fermata.v1.RaftBatch.$Properties);
            $unknowns?: Uint8Array[];
            clusterId: string;
            from: string;
            messages: fermata.v1.RaftMessage.$Properties[];
            fromAddress: string;
            static create(properties: fermata.v1.RaftBatch.$Shape): fermata.v1.RaftBatch & fermata.v1.RaftBatch.$Shape;
            static create(properties?: fermata.v1.RaftBatch.$Properties): fermata.v1.RaftBatch;
            static encode(message: fermata.v1.RaftBatch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RaftBatch & fermata.v1.RaftBatch.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftBatch {
            interface $Properties {
                clusterId?: (string|null);
                from?: (string|null);
                messages?: (fermata.v1.RaftMessage.$Properties[]|null);
                fromAddress?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RaftBatch.$Properties;
        }

        interface IRaftBatchResponse extends fermata.v1.RaftBatchResponse.$Properties {
        }

        class RaftBatchResponse {
            constructor(properties?: fermata.v1.RaftBatchResponse.$Properties);
            $unknowns?: Uint8Array[];
            static create(properties: fermata.v1.RaftBatchResponse.$Shape): fermata.v1.RaftBatchResponse & fermata.v1.RaftBatchResponse.$Shape;
            static create(properties?: fermata.v1.RaftBatchResponse.$Properties): fermata.v1.RaftBatchResponse;
            static encode(message: fermata.v1.RaftBatchResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RaftBatchResponse & fermata.v1.RaftBatchResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RaftBatchResponse {
            interface $Properties {
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RaftBatchResponse.$Properties;
        }

        interface ISnapshotChunk extends fermata.v1.SnapshotChunk.$Properties {
        }

        class SnapshotChunk {
            constructor(properties?: fermata.v1.SnapshotChunk.$Properties);
            $unknowns?: Uint8Array[];
            clusterId: string;
            from: string;
            message?: (fermata.v1.RaftMessage.$Properties|null);
            data: Uint8Array;
            sha256: Uint8Array;
            last: boolean;
            static create(properties: fermata.v1.SnapshotChunk.$Shape): fermata.v1.SnapshotChunk & fermata.v1.SnapshotChunk.$Shape;
            static create(properties?: fermata.v1.SnapshotChunk.$Properties): fermata.v1.SnapshotChunk;
            static encode(message: fermata.v1.SnapshotChunk.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.SnapshotChunk & fermata.v1.SnapshotChunk.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace SnapshotChunk {
            interface $Properties {
                clusterId?: (string|null);
                from?: (string|null);
                message?: (fermata.v1.RaftMessage.$Properties|null);
                data?: (Uint8Array|null);
                sha256?: (Uint8Array|null);
                last?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.SnapshotChunk.$Properties;
        }

        interface IInstallSnapshotResponse extends fermata.v1.InstallSnapshotResponse.$Properties {
        }

        class InstallSnapshotResponse {
            constructor(properties?: fermata.v1.InstallSnapshotResponse.$Properties);
            $unknowns?: Uint8Array[];
            bytes: Long;
            static create(properties: fermata.v1.InstallSnapshotResponse.$Shape): fermata.v1.InstallSnapshotResponse & fermata.v1.InstallSnapshotResponse.$Shape;
            static create(properties?: fermata.v1.InstallSnapshotResponse.$Properties): fermata.v1.InstallSnapshotResponse;
            static encode(message: fermata.v1.InstallSnapshotResponse.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.InstallSnapshotResponse & fermata.v1.InstallSnapshotResponse.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace InstallSnapshotResponse {
            interface $Properties {
                bytes?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.InstallSnapshotResponse.$Properties;
        }

        interface IStoredMessage extends fermata.v1.StoredMessage.$Properties {
        }

        class StoredMessage {
            constructor(properties?: fermata.v1.StoredMessage.$Properties);
            $unknowns?: Uint8Array[];
            id: Long;
            topic: string;
            payload: Uint8Array;
            headers: { [k: string]: string };
            key: string;
            enqueuedAtMs: Long;
            dueAtMs: Long;
            expireAtMs: Long;
            deadLetter?: (fermata.v1.DeadLetterInfo.$Properties|null);
            indexImplied: boolean;
            orderingKey: string;
            deliverBeforeMs: Long;
            static create(properties: fermata.v1.StoredMessage.$Shape): fermata.v1.StoredMessage & fermata.v1.StoredMessage.$Shape;
            static create(properties?: fermata.v1.StoredMessage.$Properties): fermata.v1.StoredMessage;
            static encode(message: fermata.v1.StoredMessage.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.StoredMessage & fermata.v1.StoredMessage.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace StoredMessage {
            interface $Properties {
                id?: (Long|null);
                topic?: (string|null);
                payload?: (Uint8Array|null);
                headers?: ({ [k: string]: string }|null);
                key?: (string|null);
                enqueuedAtMs?: (Long|null);
                dueAtMs?: (Long|null);
                expireAtMs?: (Long|null);
                deadLetter?: (fermata.v1.DeadLetterInfo.$Properties|null);
                indexImplied?: (boolean|null);
                orderingKey?: (string|null);
                deliverBeforeMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.StoredMessage.$Properties;
        }

        interface IDeadLetterInfo extends fermata.v1.DeadLetterInfo.$Properties {
        }

        class DeadLetterInfo {
            constructor(properties?: fermata.v1.DeadLetterInfo.$Properties);
            $unknowns?: Uint8Array[];
            sourceTopic: string;
            sourceGroup: string;
            sourceId: Long;
            reason: string;
            attempts: number;
            deliveredAtMs: Long[];
            sourceKey: string;
            deadLetteredAtMs: Long;
            lastError: string;
            static create(properties: fermata.v1.DeadLetterInfo.$Shape): fermata.v1.DeadLetterInfo & fermata.v1.DeadLetterInfo.$Shape;
            static create(properties?: fermata.v1.DeadLetterInfo.$Properties): fermata.v1.DeadLetterInfo;
            static encode(message: fermata.v1.DeadLetterInfo.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.DeadLetterInfo & fermata.v1.DeadLetterInfo.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace DeadLetterInfo {
            interface $Properties {
                sourceTopic?: (string|null);
                sourceGroup?: (string|null);
                sourceId?: (Long|null);
                reason?: (string|null);
                attempts?: (number|null);
                deliveredAtMs?: (Long[]|null);
                sourceKey?: (string|null);
                deadLetteredAtMs?: (Long|null);
                lastError?: (string|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.DeadLetterInfo.$Properties;
        }

        interface IQueueEntry extends fermata.v1.QueueEntry.$Properties {
        }

        class QueueEntry {
            constructor(properties?: fermata.v1.QueueEntry.$Properties);
            $unknowns?: Uint8Array[];
            id: Long;
            topic: string;
            group: string;
            dueAtMs: Long;
            attempt: number;
            inFlight: boolean;
            deliveredAtMs: Long[];
            expireAtMs: Long;
            indexImplied: boolean;
            leaseEndMs: Long;
            indexUnwritten: boolean;
            leaseSerial: number;
            leaseConsumer: Long;
            lastError: string;
            body?: (fermata.v1.StoredMessage.$Properties|null);
            orderingKey: string;
            deliverBeforeMs: Long;
            ordered: boolean;
            static create(properties: fermata.v1.QueueEntry.$Shape): fermata.v1.QueueEntry & fermata.v1.QueueEntry.$Shape;
            static create(properties?: fermata.v1.QueueEntry.$Properties): fermata.v1.QueueEntry;
            static encode(message: fermata.v1.QueueEntry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.QueueEntry & fermata.v1.QueueEntry.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace QueueEntry {
            interface $Properties {
                id?: (Long|null);
                topic?: (string|null);
                group?: (string|null);
                dueAtMs?: (Long|null);
                attempt?: (number|null);
                inFlight?: (boolean|null);
                deliveredAtMs?: (Long[]|null);
                expireAtMs?: (Long|null);
                indexImplied?: (boolean|null);
                leaseEndMs?: (Long|null);
                indexUnwritten?: (boolean|null);
                leaseSerial?: (number|null);
                leaseConsumer?: (Long|null);
                lastError?: (string|null);
                body?: (fermata.v1.StoredMessage.$Properties|null);
                orderingKey?: (string|null);
                deliverBeforeMs?: (Long|null);
                ordered?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.QueueEntry.$Properties;
        }

        interface ILeaseRecord extends fermata.v1.LeaseRecord.$Properties {
        }

        class LeaseRecord {
            constructor(properties?: fermata.v1.LeaseRecord.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            queue: Long;
            consumer: Long;
            nowMs: Long;
            leaseMs: Long;
            keys: Uint8Array;
            startOffsets: Long[];
            sideRecords: Uint8Array;
            static create(properties: fermata.v1.LeaseRecord.$Shape): fermata.v1.LeaseRecord & fermata.v1.LeaseRecord.$Shape;
            static create(properties?: fermata.v1.LeaseRecord.$Properties): fermata.v1.LeaseRecord;
            static encode(message: fermata.v1.LeaseRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.LeaseRecord & fermata.v1.LeaseRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace LeaseRecord {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                queue?: (Long|null);
                consumer?: (Long|null);
                nowMs?: (Long|null);
                leaseMs?: (Long|null);
                keys?: (Uint8Array|null);
                startOffsets?: (Long[]|null);
                sideRecords?: (Uint8Array|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.LeaseRecord.$Properties;
        }

        interface ILeaseSettles extends fermata.v1.LeaseSettles.$Properties {
        }

        class LeaseSettles {
            constructor(properties?: fermata.v1.LeaseSettles.$Properties);
            $unknowns?: Uint8Array[];
            settled: Uint8Array;
            extended: number[];
            extendedEndMs: Long[];
            static create(properties: fermata.v1.LeaseSettles.$Shape): fermata.v1.LeaseSettles & fermata.v1.LeaseSettles.$Shape;
            static create(properties?: fermata.v1.LeaseSettles.$Properties): fermata.v1.LeaseSettles;
            static encode(message: fermata.v1.LeaseSettles.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.LeaseSettles & fermata.v1.LeaseSettles.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace LeaseSettles {
            interface $Properties {
                settled?: (Uint8Array|null);
                extended?: (number[]|null);
                extendedEndMs?: (Long[]|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.LeaseSettles.$Properties;
        }

        interface IPublishRecord extends fermata.v1.PublishRecord.$Properties {
        }

        class PublishRecord {
            constructor(properties?: fermata.v1.PublishRecord.$Properties);
            $unknowns?: Uint8Array[];
            queues: Long[];
            idDeltas: Long[];
            queueIndex: number[];
            dueDeltas: Long[];
            latestDueMs: Long;
            static create(properties: fermata.v1.PublishRecord.$Shape): fermata.v1.PublishRecord & fermata.v1.PublishRecord.$Shape;
            static create(properties?: fermata.v1.PublishRecord.$Properties): fermata.v1.PublishRecord;
            static encode(message: fermata.v1.PublishRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PublishRecord & fermata.v1.PublishRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PublishRecord {
            interface $Properties {
                queues?: (Long[]|null);
                idDeltas?: (Long[]|null);
                queueIndex?: (number[]|null);
                dueDeltas?: (Long[]|null);
                latestDueMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PublishRecord.$Properties;
        }

        enum GroupOutcome {
            GROUP_OUTCOME_LIVE = 0,
            GROUP_OUTCOME_DONE = 1,
            GROUP_OUTCOME_DEAD_LETTERED = 2,
            GROUP_OUTCOME_EXPIRED = 3,
            GROUP_OUTCOME_REMOVED = 4
        }

        interface IGroupRef extends fermata.v1.GroupRef.$Properties {
        }

        class GroupRef {
            constructor(properties?: fermata.v1.GroupRef.$Properties);
            $unknowns?: Uint8Array[];
            group: string;
            tag: Uint8Array;
            outcome: fermata.v1.GroupOutcome;
            static create(properties: fermata.v1.GroupRef.$Shape): fermata.v1.GroupRef & fermata.v1.GroupRef.$Shape;
            static create(properties?: fermata.v1.GroupRef.$Properties): fermata.v1.GroupRef;
            static encode(message: fermata.v1.GroupRef.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.GroupRef & fermata.v1.GroupRef.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace GroupRef {
            interface $Properties {
                group?: (string|null);
                tag?: (Uint8Array|null);
                outcome?: (fermata.v1.GroupOutcome|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.GroupRef.$Properties;
        }

        interface IMessageIndex extends fermata.v1.MessageIndex.$Properties {
        }

        class MessageIndex {
            constructor(properties?: fermata.v1.MessageIndex.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            key: string;
            expireAtMs: Long;
            groups: fermata.v1.GroupRef.$Properties[];
            done: boolean;
            endedAtMs: Long;
            static create(properties: fermata.v1.MessageIndex.$Shape): fermata.v1.MessageIndex & fermata.v1.MessageIndex.$Shape;
            static create(properties?: fermata.v1.MessageIndex.$Properties): fermata.v1.MessageIndex;
            static encode(message: fermata.v1.MessageIndex.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.MessageIndex & fermata.v1.MessageIndex.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace MessageIndex {
            interface $Properties {
                topic?: (string|null);
                key?: (string|null);
                expireAtMs?: (Long|null);
                groups?: (fermata.v1.GroupRef.$Properties[]|null);
                done?: (boolean|null);
                endedAtMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.MessageIndex.$Properties;
        }

        interface IRequestRecord extends fermata.v1.RequestRecord.$Properties {
        }

        class RequestRecord {
            constructor(properties?: fermata.v1.RequestRecord.$Properties);
            $unknowns?: Uint8Array[];
            firstId: Long;
            appliedAtMs: Long;
            dueOffsetMs: Long[];
            existingIndex: number[];
            existingId: Long[];
            windowEndMs: Long;
            static create(properties: fermata.v1.RequestRecord.$Shape): fermata.v1.RequestRecord & fermata.v1.RequestRecord.$Shape;
            static create(properties?: fermata.v1.RequestRecord.$Properties): fermata.v1.RequestRecord;
            static encode(message: fermata.v1.RequestRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.RequestRecord & fermata.v1.RequestRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace RequestRecord {
            interface $Properties {
                firstId?: (Long|null);
                appliedAtMs?: (Long|null);
                dueOffsetMs?: (Long[]|null);
                existingIndex?: (number[]|null);
                existingId?: (Long[]|null);
                windowEndMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.RequestRecord.$Properties;
        }

        interface IKeyRecord extends fermata.v1.KeyRecord.$Properties {
        }

        class KeyRecord {
            constructor(properties?: fermata.v1.KeyRecord.$Properties);
            $unknowns?: Uint8Array[];
            id: Long;
            endedAtMs: Long;
            windowEndMs: Long;
            static create(properties: fermata.v1.KeyRecord.$Shape): fermata.v1.KeyRecord & fermata.v1.KeyRecord.$Shape;
            static create(properties?: fermata.v1.KeyRecord.$Properties): fermata.v1.KeyRecord;
            static encode(message: fermata.v1.KeyRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.KeyRecord & fermata.v1.KeyRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace KeyRecord {
            interface $Properties {
                id?: (Long|null);
                endedAtMs?: (Long|null);
                windowEndMs?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.KeyRecord.$Properties;
        }

        interface ITopicRecord extends fermata.v1.TopicRecord.$Properties {
        }

        class TopicRecord {
            constructor(properties?: fermata.v1.TopicRecord.$Properties);
            $unknowns?: Uint8Array[];
            name: string;
            settings?: (fermata.v1.TopicSettings.$Properties|null);
            groups: string[];
            createdAtMs: Long;
            deleting: boolean;
            deletingGroups: string[];
            groupSettings: { [k: string]: fermata.v1.GroupSettings.$Properties };
            static create(properties: fermata.v1.TopicRecord.$Shape): fermata.v1.TopicRecord & fermata.v1.TopicRecord.$Shape;
            static create(properties?: fermata.v1.TopicRecord.$Properties): fermata.v1.TopicRecord;
            static encode(message: fermata.v1.TopicRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.TopicRecord & fermata.v1.TopicRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace TopicRecord {
            interface $Properties {
                name?: (string|null);
                settings?: (fermata.v1.TopicSettings.$Properties|null);
                groups?: (string[]|null);
                createdAtMs?: (Long|null);
                deleting?: (boolean|null);
                deletingGroups?: (string[]|null);
                groupSettings?: ({ [k: string]: fermata.v1.GroupSettings.$Properties }|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.TopicRecord.$Properties;
        }

        enum PurgePhase {
            PURGE_PHASE_UNSPECIFIED = 0,
            PURGE_PHASE_ENTRIES = 1,
            PURGE_PHASE_KEYS = 2,
            PURGE_PHASE_SCHEDULES = 3
        }

        interface IPurgeRecord extends fermata.v1.PurgeRecord.$Properties {
        }

        class PurgeRecord {
            constructor(properties?: fermata.v1.PurgeRecord.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            startedAtMs: Long;
            groups: string[];
            phase: fermata.v1.PurgePhase;
            groupIndex: number;
            cursor: Uint8Array;
            entriesAtStart: Long;
            removedEntries: Long;
            removedRecords: Long;
            static create(properties: fermata.v1.PurgeRecord.$Shape): fermata.v1.PurgeRecord & fermata.v1.PurgeRecord.$Shape;
            static create(properties?: fermata.v1.PurgeRecord.$Properties): fermata.v1.PurgeRecord;
            static encode(message: fermata.v1.PurgeRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.PurgeRecord & fermata.v1.PurgeRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace PurgeRecord {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                startedAtMs?: (Long|null);
                groups?: (string[]|null);
                phase?: (fermata.v1.PurgePhase|null);
                groupIndex?: (number|null);
                cursor?: (Uint8Array|null);
                entriesAtStart?: (Long|null);
                removedEntries?: (Long|null);
                removedRecords?: (Long|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.PurgeRecord.$Properties;
        }

        interface IQueueRecord extends fermata.v1.QueueRecord.$Properties {
        }

        class QueueRecord {
            constructor(properties?: fermata.v1.QueueRecord.$Properties);
            $unknowns?: Uint8Array[];
            topic: string;
            group: string;
            pending: Long;
            inFlight: Long;
            deadLettered: Long;
            dueLoad: boolean;
            static create(properties: fermata.v1.QueueRecord.$Shape): fermata.v1.QueueRecord & fermata.v1.QueueRecord.$Shape;
            static create(properties?: fermata.v1.QueueRecord.$Properties): fermata.v1.QueueRecord;
            static encode(message: fermata.v1.QueueRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;
            static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): fermata.v1.QueueRecord & fermata.v1.QueueRecord.$Shape;
            static getTypeUrl(prefix?: string): string;
        }

        namespace QueueRecord {
            interface $Properties {
                topic?: (string|null);
                group?: (string|null);
                pending?: (Long|null);
                inFlight?: (Long|null);
                deadLettered?: (Long|null);
                dueLoad?: (boolean|null);
                $unknowns?: Uint8Array[];
            }
            type $Shape = fermata.v1.QueueRecord.$Properties;
        }
    }
}
