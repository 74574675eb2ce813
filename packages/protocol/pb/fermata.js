/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError;

const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const fermata = $root.fermata = (() => {

    const fermata = {};

    fermata.v1 = (function() {

        const v1 = {};

        v1.Admin = (function() {

            const Admin = function(rpcImpl, requestDelimited, responseDelimited) {
                $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
            };

            $Object.defineProperty(Admin.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: Admin, writable: true, enumerable: false, configurable: true });

            Admin.create = function(rpcImpl, requestDelimited, responseDelimited) {
                return new this(rpcImpl, requestDelimited, responseDelimited);
            };



            $Object.defineProperties(Admin.prototype.createTopic = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.createTopic, $root.fermata.v1.CreateTopicRequest, $root.fermata.v1.CreateTopicResponse, request, callback);
            }, {
                name: { value: "CreateTopic" },
                path: { value: "/fermata.v1.Admin/CreateTopic" },
                requestType: { value: "CreateTopicRequest" },
                responseType: { value: "CreateTopicResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.updateTopic = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.updateTopic, $root.fermata.v1.UpdateTopicRequest, $root.fermata.v1.UpdateTopicResponse, request, callback);
            }, {
                name: { value: "UpdateTopic" },
                path: { value: "/fermata.v1.Admin/UpdateTopic" },
                requestType: { value: "UpdateTopicRequest" },
                responseType: { value: "UpdateTopicResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.deleteTopic = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.deleteTopic, $root.fermata.v1.DeleteTopicRequest, $root.fermata.v1.DeleteTopicResponse, request, callback);
            }, {
                name: { value: "DeleteTopic" },
                path: { value: "/fermata.v1.Admin/DeleteTopic" },
                requestType: { value: "DeleteTopicRequest" },
                responseType: { value: "DeleteTopicResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.listTopics = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.listTopics, $root.fermata.v1.ListTopicsRequest, $root.fermata.v1.ListTopicsResponse, request, callback);
            }, {
                name: { value: "ListTopics" },
                path: { value: "/fermata.v1.Admin/ListTopics" },
                requestType: { value: "ListTopicsRequest" },
                responseType: { value: "ListTopicsResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.getTopicStats = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.getTopicStats, $root.fermata.v1.GetTopicStatsRequest, $root.fermata.v1.GetTopicStatsResponse, request, callback);
            }, {
                name: { value: "GetTopicStats" },
                path: { value: "/fermata.v1.Admin/GetTopicStats" },
                requestType: { value: "GetTopicStatsRequest" },
                responseType: { value: "GetTopicStatsResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.createGroup = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.createGroup, $root.fermata.v1.CreateGroupRequest, $root.fermata.v1.CreateGroupResponse, request, callback);
            }, {
                name: { value: "CreateGroup" },
                path: { value: "/fermata.v1.Admin/CreateGroup" },
                requestType: { value: "CreateGroupRequest" },
                responseType: { value: "CreateGroupResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.updateGroup = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.updateGroup, $root.fermata.v1.UpdateGroupRequest, $root.fermata.v1.UpdateGroupResponse, request, callback);
            }, {
                name: { value: "UpdateGroup" },
                path: { value: "/fermata.v1.Admin/UpdateGroup" },
                requestType: { value: "UpdateGroupRequest" },
                responseType: { value: "UpdateGroupResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.deleteGroup = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.deleteGroup, $root.fermata.v1.DeleteGroupRequest, $root.fermata.v1.DeleteGroupResponse, request, callback);
            }, {
                name: { value: "DeleteGroup" },
                path: { value: "/fermata.v1.Admin/DeleteGroup" },
                requestType: { value: "DeleteGroupRequest" },
                responseType: { value: "DeleteGroupResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Admin.prototype.testPush = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Admin.prototype.testPush, $root.fermata.v1.TestPushRequest, $root.fermata.v1.TestPushResponse, request, callback);
            }, {
                name: { value: "TestPush" },
                path: { value: "/fermata.v1.Admin/TestPush" },
                requestType: { value: "TestPushRequest" },
                responseType: { value: "TestPushResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });

            return Admin;
        })();

        v1.ExpiryAction = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "EXPIRY_ACTION_UNSPECIFIED"] = 0;
            values[valuesById[1] = "EXPIRY_ACTION_DROP"] = 1;
            values[valuesById[2] = "EXPIRY_ACTION_DEAD_LETTER"] = 2;
            return values;
        })();

        v1.Ordering = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "ORDERING_UNSPECIFIED"] = 0;
            values[valuesById[1] = "ORDERING_NONE"] = 1;
            values[valuesById[2] = "ORDERING_KEY"] = 2;
            return values;
        })();

        v1.DeadlineAction = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "DEADLINE_ACTION_UNSPECIFIED"] = 0;
            values[valuesById[1] = "DEADLINE_ACTION_DEAD_LETTER"] = 1;
            values[valuesById[2] = "DEADLINE_ACTION_DROP"] = 2;
            return values;
        })();

        v1.GroupSettings = (function() {

            const GroupSettings = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GroupSettings.prototype.maxDeliveriesPerSecond = 0;
            GroupSettings.prototype.burst = 0;
            GroupSettings.prototype.maxInFlight = 0;
            GroupSettings.prototype.ordering = 0;
            GroupSettings.prototype.paused = false;
            GroupSettings.prototype.push = null;

            GroupSettings.create = function(properties) {
                return new GroupSettings(properties);
            };

            GroupSettings.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.maxDeliveriesPerSecond != null && $Object.hasOwnProperty.call(message, "maxDeliveriesPerSecond") && message.maxDeliveriesPerSecond !== 0)
                    writer.uint32(8).uint32(message.maxDeliveriesPerSecond);
                if (message.burst != null && $Object.hasOwnProperty.call(message, "burst") && message.burst !== 0)
                    writer.uint32(16).uint32(message.burst);
                if (message.maxInFlight != null && $Object.hasOwnProperty.call(message, "maxInFlight") && message.maxInFlight !== 0)
                    writer.uint32(24).uint32(message.maxInFlight);
                if (message.ordering != null && $Object.hasOwnProperty.call(message, "ordering") && message.ordering !== 0)
                    writer.uint32(32).int32(message.ordering);
                if (message.paused != null && $Object.hasOwnProperty.call(message, "paused") && message.paused !== false)
                    writer.uint32(40).bool(message.paused);
                if (message.push != null && $Object.hasOwnProperty.call(message, "push"))
                    $root.fermata.v1.PushSettings.encode(message.push, writer.uint32(50).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GroupSettings.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GroupSettings();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.maxDeliveriesPerSecond = value;
                            else
                                delete message.maxDeliveriesPerSecond;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.burst = value;
                            else
                                delete message.burst;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.maxInFlight = value;
                            else
                                delete message.maxInFlight;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.ordering = value;
                            else
                                delete message.ordering;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.paused = value;
                            else
                                delete message.paused;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            message.push = $root.fermata.v1.PushSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.push);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GroupSettings.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GroupSettings";
            };

            return GroupSettings;
        })();

        v1.PushSettings = (function() {

            const PushSettings = function (properties) {
                this.headers = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PushSettings.prototype.endpoint = "";
            PushSettings.prototype.timeoutMs = 0;
            PushSettings.prototype.concurrency = 0;
            PushSettings.prototype.backoffInitialMs = 0;
            PushSettings.prototype.backoffMultiplier = 0;
            PushSettings.prototype.backoffMaxMs = 0;
            PushSettings.prototype.headers = $util.emptyObject;
            PushSettings.prototype.secretFile = "";
            PushSettings.prototype.caFile = "";

            PushSettings.create = function(properties) {
                return new PushSettings(properties);
            };

            PushSettings.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.endpoint != null && $Object.hasOwnProperty.call(message, "endpoint") && message.endpoint !== "")
                    writer.uint32(10).string(message.endpoint);
                if (message.timeoutMs != null && $Object.hasOwnProperty.call(message, "timeoutMs") && message.timeoutMs !== 0)
                    writer.uint32(16).uint32(message.timeoutMs);
                if (message.concurrency != null && $Object.hasOwnProperty.call(message, "concurrency") && message.concurrency !== 0)
                    writer.uint32(24).uint32(message.concurrency);
                if (message.backoffInitialMs != null && $Object.hasOwnProperty.call(message, "backoffInitialMs") && message.backoffInitialMs !== 0)
                    writer.uint32(32).uint32(message.backoffInitialMs);
                if (message.backoffMultiplier != null && $Object.hasOwnProperty.call(message, "backoffMultiplier") && !$Object.is(message.backoffMultiplier, 0))
                    writer.uint32(41).double(message.backoffMultiplier);
                if (message.backoffMaxMs != null && $Object.hasOwnProperty.call(message, "backoffMaxMs") && message.backoffMaxMs !== 0)
                    writer.uint32(48).uint32(message.backoffMaxMs);
                if (message.headers != null && $Object.hasOwnProperty.call(message, "headers"))
                    for (let keys = $Object.keys(message.headers), i = 0; i < keys.length; ++i)
                        writer.uint32(58).fork().uint32(10).string(keys[i]).uint32(18).string(message.headers[keys[i]]).ldelim();
                if (message.secretFile != null && $Object.hasOwnProperty.call(message, "secretFile") && message.secretFile !== "")
                    writer.uint32(66).string(message.secretFile);
                if (message.caFile != null && $Object.hasOwnProperty.call(message, "caFile") && message.caFile !== "")
                    writer.uint32(74).string(message.caFile);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PushSettings.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PushSettings();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.endpoint = value;
                            else
                                delete message.endpoint;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.timeoutMs = value;
                            else
                                delete message.timeoutMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.concurrency = value;
                            else
                                delete message.concurrency;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.backoffInitialMs = value;
                            else
                                delete message.backoffInitialMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 1)
                                break;
                            if (!$Object.is(value = reader.double(), 0))
                                message.backoffMultiplier = value;
                            else
                                delete message.backoffMultiplier;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.backoffMaxMs = value;
                            else
                                delete message.backoffMaxMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if (message.headers === $util.emptyObject)
                                message.headers = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.headers, key);
                            message.headers[key] = value;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.secretFile = value;
                            else
                                delete message.secretFile;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.caFile = value;
                            else
                                delete message.caFile;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PushSettings.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PushSettings";
            };

            return PushSettings;
        })();

        v1.TestPushRequest = (function() {

            const TestPushRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TestPushRequest.prototype.topic = "";
            TestPushRequest.prototype.group = "";

            TestPushRequest.create = function(properties) {
                return new TestPushRequest(properties);
            };

            TestPushRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TestPushRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TestPushRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TestPushRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TestPushRequest";
            };

            return TestPushRequest;
        })();

        v1.TestPushResponse = (function() {

            const TestPushResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TestPushResponse.prototype.status = 0;
            TestPushResponse.prototype.body = "";
            TestPushResponse.prototype.latencyMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            TestPushResponse.prototype.error = "";
            TestPushResponse.prototype.signature = "";

            TestPushResponse.create = function(properties) {
                return new TestPushResponse(properties);
            };

            TestPushResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(8).uint32(message.status);
                if (message.body != null && $Object.hasOwnProperty.call(message, "body") && message.body !== "")
                    writer.uint32(18).string(message.body);
                if (message.latencyMs != null && $Object.hasOwnProperty.call(message, "latencyMs") && (typeof message.latencyMs === "object" ? message.latencyMs.low || message.latencyMs.high : message.latencyMs !== 0))
                    writer.uint32(24).int64(message.latencyMs);
                if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                    writer.uint32(34).string(message.error);
                if (message.signature != null && $Object.hasOwnProperty.call(message, "signature") && message.signature !== "")
                    writer.uint32(42).string(message.signature);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TestPushResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TestPushResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.body = value;
                            else
                                delete message.body;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.latencyMs = value;
                            else
                                delete message.latencyMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.error = value;
                            else
                                delete message.error;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.signature = value;
                            else
                                delete message.signature;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TestPushResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TestPushResponse";
            };

            return TestPushResponse;
        })();

        v1.TopicSettings = (function() {

            const TopicSettings = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TopicSettings.prototype.maxAttempts = 0;
            TopicSettings.prototype.defaultLeaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            TopicSettings.prototype.deadLetterTopic = "";
            TopicSettings.prototype.expiryAction = 0;
            TopicSettings.prototype.timeBucketMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            TopicSettings.prototype.dedupWindowMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            TopicSettings.prototype.deadLetterAuthorizedBy = "";
            TopicSettings.prototype.ordering = 0;
            TopicSettings.prototype.orderingKeyFromKey = false;
            TopicSettings.prototype.maxLatenessMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            TopicSettings.prototype.deadlineAction = 0;
            TopicSettings.prototype.paused = false;

            TopicSettings.create = function(properties) {
                return new TopicSettings(properties);
            };

            TopicSettings.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.maxAttempts != null && $Object.hasOwnProperty.call(message, "maxAttempts") && message.maxAttempts !== 0)
                    writer.uint32(8).uint32(message.maxAttempts);
                if (message.defaultLeaseMs != null && $Object.hasOwnProperty.call(message, "defaultLeaseMs") && (typeof message.defaultLeaseMs === "object" ? message.defaultLeaseMs.low || message.defaultLeaseMs.high : message.defaultLeaseMs !== 0))
                    writer.uint32(16).int64(message.defaultLeaseMs);
                if (message.deadLetterTopic != null && $Object.hasOwnProperty.call(message, "deadLetterTopic") && message.deadLetterTopic !== "")
                    writer.uint32(26).string(message.deadLetterTopic);
                if (message.expiryAction != null && $Object.hasOwnProperty.call(message, "expiryAction") && message.expiryAction !== 0)
                    writer.uint32(32).int32(message.expiryAction);
                if (message.timeBucketMs != null && $Object.hasOwnProperty.call(message, "timeBucketMs") && (typeof message.timeBucketMs === "object" ? message.timeBucketMs.low || message.timeBucketMs.high : message.timeBucketMs !== 0))
                    writer.uint32(40).int64(message.timeBucketMs);
                if (message.dedupWindowMs != null && $Object.hasOwnProperty.call(message, "dedupWindowMs") && (typeof message.dedupWindowMs === "object" ? message.dedupWindowMs.low || message.dedupWindowMs.high : message.dedupWindowMs !== 0))
                    writer.uint32(48).int64(message.dedupWindowMs);
                if (message.deadLetterAuthorizedBy != null && $Object.hasOwnProperty.call(message, "deadLetterAuthorizedBy") && message.deadLetterAuthorizedBy !== "")
                    writer.uint32(58).string(message.deadLetterAuthorizedBy);
                if (message.ordering != null && $Object.hasOwnProperty.call(message, "ordering") && message.ordering !== 0)
                    writer.uint32(64).int32(message.ordering);
                if (message.orderingKeyFromKey != null && $Object.hasOwnProperty.call(message, "orderingKeyFromKey") && message.orderingKeyFromKey !== false)
                    writer.uint32(72).bool(message.orderingKeyFromKey);
                if (message.maxLatenessMs != null && $Object.hasOwnProperty.call(message, "maxLatenessMs") && (typeof message.maxLatenessMs === "object" ? message.maxLatenessMs.low || message.maxLatenessMs.high : message.maxLatenessMs !== 0))
                    writer.uint32(80).int64(message.maxLatenessMs);
                if (message.deadlineAction != null && $Object.hasOwnProperty.call(message, "deadlineAction") && message.deadlineAction !== 0)
                    writer.uint32(88).int32(message.deadlineAction);
                if (message.paused != null && $Object.hasOwnProperty.call(message, "paused") && message.paused !== false)
                    writer.uint32(96).bool(message.paused);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TopicSettings.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TopicSettings();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.maxAttempts = value;
                            else
                                delete message.maxAttempts;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.defaultLeaseMs = value;
                            else
                                delete message.defaultLeaseMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.deadLetterTopic = value;
                            else
                                delete message.deadLetterTopic;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.expiryAction = value;
                            else
                                delete message.expiryAction;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.timeBucketMs = value;
                            else
                                delete message.timeBucketMs;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dedupWindowMs = value;
                            else
                                delete message.dedupWindowMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.deadLetterAuthorizedBy = value;
                            else
                                delete message.deadLetterAuthorizedBy;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.ordering = value;
                            else
                                delete message.ordering;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.orderingKeyFromKey = value;
                            else
                                delete message.orderingKeyFromKey;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.maxLatenessMs = value;
                            else
                                delete message.maxLatenessMs;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.deadlineAction = value;
                            else
                                delete message.deadlineAction;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.paused = value;
                            else
                                delete message.paused;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TopicSettings.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TopicSettings";
            };

            return TopicSettings;
        })();

        v1.Topic = (function() {

            const Topic = function (properties) {
                this.groups = [];
                this.groupSettings = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Topic.prototype.name = "";
            Topic.prototype.settings = null;
            Topic.prototype.groups = $util.emptyArray;
            Topic.prototype.createdAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Topic.prototype.deleting = false;
            Topic.prototype.groupSettings = $util.emptyObject;

            Topic.create = function(properties) {
                return new Topic(properties);
            };

            Topic.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.TopicSettings.encode(message.settings, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.groups != null && message.groups.length)
                    for (let i = 0; i < message.groups.length; ++i)
                        writer.uint32(26).string(message.groups[i]);
                if (message.createdAtMs != null && $Object.hasOwnProperty.call(message, "createdAtMs") && (typeof message.createdAtMs === "object" ? message.createdAtMs.low || message.createdAtMs.high : message.createdAtMs !== 0))
                    writer.uint32(32).int64(message.createdAtMs);
                if (message.deleting != null && $Object.hasOwnProperty.call(message, "deleting") && message.deleting !== false)
                    writer.uint32(40).bool(message.deleting);
                if (message.groupSettings != null && $Object.hasOwnProperty.call(message, "groupSettings"))
                    for (let keys = $Object.keys(message.groupSettings), i = 0; i < keys.length; ++i) {
                        writer.uint32(50).fork().uint32(10).string(keys[i]);
                        $root.fermata.v1.GroupSettings.encode(message.groupSettings[keys[i]], writer.uint32(18).fork(), _depth + 1).ldelim().ldelim();
                    }
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Topic.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Topic();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.TopicSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.groups && message.groups.length))
                                message.groups = [];
                            message.groups.push(reader.stringVerify());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.createdAtMs = value;
                            else
                                delete message.createdAtMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.deleting = value;
                            else
                                delete message.deleting;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if (message.groupSettings === $util.emptyObject)
                                message.groupSettings = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = null;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.groupSettings, key);
                            message.groupSettings[key] = value || new $root.fermata.v1.GroupSettings();
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Topic.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Topic";
            };

            return Topic;
        })();

        v1.CreateTopicRequest = (function() {

            const CreateTopicRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateTopicRequest.prototype.name = "";
            CreateTopicRequest.prototype.settings = null;

            CreateTopicRequest.create = function(properties) {
                return new CreateTopicRequest(properties);
            };

            CreateTopicRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.TopicSettings.encode(message.settings, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateTopicRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CreateTopicRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.TopicSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateTopicRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CreateTopicRequest";
            };

            return CreateTopicRequest;
        })();

        v1.CreateTopicResponse = (function() {

            const CreateTopicResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateTopicResponse.prototype.topic = null;

            CreateTopicResponse.create = function(properties) {
                return new CreateTopicResponse(properties);
            };

            CreateTopicResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic"))
                    $root.fermata.v1.Topic.encode(message.topic, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateTopicResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CreateTopicResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.topic = $root.fermata.v1.Topic.decode(reader, reader.size(), $undefined, _depth + 1, message.topic);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateTopicResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CreateTopicResponse";
            };

            return CreateTopicResponse;
        })();

        v1.UpdateTopicRequest = (function() {

            const UpdateTopicRequest = function (properties) {
                this.updateMask = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpdateTopicRequest.prototype.name = "";
            UpdateTopicRequest.prototype.settings = null;
            UpdateTopicRequest.prototype.updateMask = $util.emptyArray;

            UpdateTopicRequest.create = function(properties) {
                return new UpdateTopicRequest(properties);
            };

            UpdateTopicRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.TopicSettings.encode(message.settings, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.updateMask != null && message.updateMask.length)
                    for (let i = 0; i < message.updateMask.length; ++i)
                        writer.uint32(26).string(message.updateMask[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpdateTopicRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpdateTopicRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.TopicSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.updateMask && message.updateMask.length))
                                message.updateMask = [];
                            message.updateMask.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpdateTopicRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpdateTopicRequest";
            };

            return UpdateTopicRequest;
        })();

        v1.UpdateTopicResponse = (function() {

            const UpdateTopicResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpdateTopicResponse.prototype.topic = null;

            UpdateTopicResponse.create = function(properties) {
                return new UpdateTopicResponse(properties);
            };

            UpdateTopicResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic"))
                    $root.fermata.v1.Topic.encode(message.topic, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpdateTopicResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpdateTopicResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.topic = $root.fermata.v1.Topic.decode(reader, reader.size(), $undefined, _depth + 1, message.topic);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpdateTopicResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpdateTopicResponse";
            };

            return UpdateTopicResponse;
        })();

        v1.DeleteTopicRequest = (function() {

            const DeleteTopicRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteTopicRequest.prototype.name = "";

            DeleteTopicRequest.create = function(properties) {
                return new DeleteTopicRequest(properties);
            };

            DeleteTopicRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteTopicRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeleteTopicRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteTopicRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeleteTopicRequest";
            };

            return DeleteTopicRequest;
        })();

        v1.DeleteTopicResponse = (function() {

            const DeleteTopicResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteTopicResponse.prototype.removedMessages = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            DeleteTopicResponse.create = function(properties) {
                return new DeleteTopicResponse(properties);
            };

            DeleteTopicResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.removedMessages != null && $Object.hasOwnProperty.call(message, "removedMessages") && (typeof message.removedMessages === "object" ? message.removedMessages.low || message.removedMessages.high : message.removedMessages !== 0))
                    writer.uint32(8).uint64(message.removedMessages);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteTopicResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeleteTopicResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.removedMessages = value;
                            else
                                delete message.removedMessages;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteTopicResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeleteTopicResponse";
            };

            return DeleteTopicResponse;
        })();

        v1.ListTopicsRequest = (function() {

            const ListTopicsRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListTopicsRequest.create = function(properties) {
                return new ListTopicsRequest(properties);
            };

            ListTopicsRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListTopicsRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListTopicsRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListTopicsRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListTopicsRequest";
            };

            return ListTopicsRequest;
        })();

        v1.ListTopicsResponse = (function() {

            const ListTopicsResponse = function (properties) {
                this.topics = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListTopicsResponse.prototype.topics = $util.emptyArray;

            ListTopicsResponse.create = function(properties) {
                return new ListTopicsResponse(properties);
            };

            ListTopicsResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topics != null && message.topics.length)
                    for (let i = 0; i < message.topics.length; ++i)
                        $root.fermata.v1.Topic.encode(message.topics[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListTopicsResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListTopicsResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.topics && message.topics.length))
                                message.topics = [];
                            message.topics.push($root.fermata.v1.Topic.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListTopicsResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListTopicsResponse";
            };

            return ListTopicsResponse;
        })();

        v1.GroupStats = (function() {

            const GroupStats = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GroupStats.prototype.group = "";
            GroupStats.prototype.pending = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GroupStats.prototype.inFlight = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GroupStats.prototype.deadLettered = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GroupStats.prototype.nextDueMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            GroupStats.prototype.settings = null;
            GroupStats.prototype.paused = false;
            GroupStats.prototype.throttled = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GroupStats.prototype.push = null;

            GroupStats.create = function(properties) {
                return new GroupStats(properties);
            };

            GroupStats.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(10).string(message.group);
                if (message.pending != null && $Object.hasOwnProperty.call(message, "pending") && (typeof message.pending === "object" ? message.pending.low || message.pending.high : message.pending !== 0))
                    writer.uint32(16).uint64(message.pending);
                if (message.inFlight != null && $Object.hasOwnProperty.call(message, "inFlight") && (typeof message.inFlight === "object" ? message.inFlight.low || message.inFlight.high : message.inFlight !== 0))
                    writer.uint32(24).uint64(message.inFlight);
                if (message.deadLettered != null && $Object.hasOwnProperty.call(message, "deadLettered") && (typeof message.deadLettered === "object" ? message.deadLettered.low || message.deadLettered.high : message.deadLettered !== 0))
                    writer.uint32(32).uint64(message.deadLettered);
                if (message.nextDueMs != null && $Object.hasOwnProperty.call(message, "nextDueMs") && (typeof message.nextDueMs === "object" ? message.nextDueMs.low || message.nextDueMs.high : message.nextDueMs !== 0))
                    writer.uint32(40).int64(message.nextDueMs);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.GroupSettings.encode(message.settings, writer.uint32(50).fork(), _depth + 1).ldelim();
                if (message.paused != null && $Object.hasOwnProperty.call(message, "paused") && message.paused !== false)
                    writer.uint32(56).bool(message.paused);
                if (message.throttled != null && $Object.hasOwnProperty.call(message, "throttled") && (typeof message.throttled === "object" ? message.throttled.low || message.throttled.high : message.throttled !== 0))
                    writer.uint32(64).uint64(message.throttled);
                if (message.push != null && $Object.hasOwnProperty.call(message, "push"))
                    $root.fermata.v1.PushStats.encode(message.push, writer.uint32(74).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GroupStats.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GroupStats();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.pending = value;
                            else
                                delete message.pending;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.inFlight = value;
                            else
                                delete message.inFlight;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.deadLettered = value;
                            else
                                delete message.deadLettered;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.nextDueMs = value;
                            else
                                delete message.nextDueMs;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.paused = value;
                            else
                                delete message.paused;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.throttled = value;
                            else
                                delete message.throttled;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            message.push = $root.fermata.v1.PushStats.decode(reader, reader.size(), $undefined, _depth + 1, message.push);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GroupStats.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GroupStats";
            };

            return GroupStats;
        })();

        v1.PushStats = (function() {

            const PushStats = function (properties) {
                this.requests = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PushStats.prototype.requests = $util.emptyObject;
            PushStats.prototype.retries = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PushStats.prototype.deadLetters = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PushStats.prototype.blocked = "";

            PushStats.create = function(properties) {
                return new PushStats(properties);
            };

            PushStats.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.requests != null && $Object.hasOwnProperty.call(message, "requests"))
                    for (let keys = $Object.keys(message.requests), i = 0; i < keys.length; ++i)
                        writer.uint32(10).fork().uint32(10).string(keys[i]).uint32(16).uint64(message.requests[keys[i]]).ldelim();
                if (message.retries != null && $Object.hasOwnProperty.call(message, "retries") && (typeof message.retries === "object" ? message.retries.low || message.retries.high : message.retries !== 0))
                    writer.uint32(16).uint64(message.retries);
                if (message.deadLetters != null && $Object.hasOwnProperty.call(message, "deadLetters") && (typeof message.deadLetters === "object" ? message.deadLetters.low || message.deadLetters.high : message.deadLetters !== 0))
                    writer.uint32(24).uint64(message.deadLetters);
                if (message.blocked != null && $Object.hasOwnProperty.call(message, "blocked") && message.blocked !== "")
                    writer.uint32(34).string(message.blocked);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PushStats.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PushStats();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (message.requests === $util.emptyObject)
                                message.requests = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = $util.Long ? $util.Long.fromNumber(0, true) : 0;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 0)
                                        break;
                                    value = reader.uint64();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.requests, key);
                            message.requests[key] = value;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.retries = value;
                            else
                                delete message.retries;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.deadLetters = value;
                            else
                                delete message.deadLetters;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.blocked = value;
                            else
                                delete message.blocked;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PushStats.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PushStats";
            };

            return PushStats;
        })();

        v1.GetTopicStatsRequest = (function() {

            const GetTopicStatsRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetTopicStatsRequest.prototype.topic = "";

            GetTopicStatsRequest.create = function(properties) {
                return new GetTopicStatsRequest(properties);
            };

            GetTopicStatsRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetTopicStatsRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetTopicStatsRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetTopicStatsRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetTopicStatsRequest";
            };

            return GetTopicStatsRequest;
        })();

        v1.GetTopicStatsResponse = (function() {

            const GetTopicStatsResponse = function (properties) {
                this.groups = [];
                this.deletions = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetTopicStatsResponse.prototype.topic = "";
            GetTopicStatsResponse.prototype.groups = $util.emptyArray;
            GetTopicStatsResponse.prototype.deletions = $util.emptyArray;

            GetTopicStatsResponse.create = function(properties) {
                return new GetTopicStatsResponse(properties);
            };

            GetTopicStatsResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.groups != null && message.groups.length)
                    for (let i = 0; i < message.groups.length; ++i)
                        $root.fermata.v1.GroupStats.encode(message.groups[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.deletions != null && message.deletions.length)
                    for (let i = 0; i < message.deletions.length; ++i)
                        $root.fermata.v1.DeletionProgress.encode(message.deletions[i], writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetTopicStatsResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetTopicStatsResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.groups && message.groups.length))
                                message.groups = [];
                            message.groups.push($root.fermata.v1.GroupStats.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.deletions && message.deletions.length))
                                message.deletions = [];
                            message.deletions.push($root.fermata.v1.DeletionProgress.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetTopicStatsResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetTopicStatsResponse";
            };

            return GetTopicStatsResponse;
        })();

        v1.DeletionProgress = (function() {

            const DeletionProgress = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeletionProgress.prototype.group = "";
            DeletionProgress.prototype.startedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            DeletionProgress.prototype.entriesAtStart = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            DeletionProgress.prototype.removedEntries = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            DeletionProgress.prototype.removedRecords = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            DeletionProgress.create = function(properties) {
                return new DeletionProgress(properties);
            };

            DeletionProgress.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(10).string(message.group);
                if (message.startedAtMs != null && $Object.hasOwnProperty.call(message, "startedAtMs") && (typeof message.startedAtMs === "object" ? message.startedAtMs.low || message.startedAtMs.high : message.startedAtMs !== 0))
                    writer.uint32(16).int64(message.startedAtMs);
                if (message.entriesAtStart != null && $Object.hasOwnProperty.call(message, "entriesAtStart") && (typeof message.entriesAtStart === "object" ? message.entriesAtStart.low || message.entriesAtStart.high : message.entriesAtStart !== 0))
                    writer.uint32(24).uint64(message.entriesAtStart);
                if (message.removedEntries != null && $Object.hasOwnProperty.call(message, "removedEntries") && (typeof message.removedEntries === "object" ? message.removedEntries.low || message.removedEntries.high : message.removedEntries !== 0))
                    writer.uint32(32).uint64(message.removedEntries);
                if (message.removedRecords != null && $Object.hasOwnProperty.call(message, "removedRecords") && (typeof message.removedRecords === "object" ? message.removedRecords.low || message.removedRecords.high : message.removedRecords !== 0))
                    writer.uint32(40).uint64(message.removedRecords);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeletionProgress.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeletionProgress();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.startedAtMs = value;
                            else
                                delete message.startedAtMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.entriesAtStart = value;
                            else
                                delete message.entriesAtStart;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.removedEntries = value;
                            else
                                delete message.removedEntries;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.removedRecords = value;
                            else
                                delete message.removedRecords;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeletionProgress.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeletionProgress";
            };

            return DeletionProgress;
        })();

        v1.CreateGroupRequest = (function() {

            const CreateGroupRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateGroupRequest.prototype.topic = "";
            CreateGroupRequest.prototype.group = "";
            CreateGroupRequest.prototype.settings = null;

            CreateGroupRequest.create = function(properties) {
                return new CreateGroupRequest(properties);
            };

            CreateGroupRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.GroupSettings.encode(message.settings, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateGroupRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CreateGroupRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateGroupRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CreateGroupRequest";
            };

            return CreateGroupRequest;
        })();

        v1.CreateGroupResponse = (function() {

            const CreateGroupResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateGroupResponse.prototype.topic = null;

            CreateGroupResponse.create = function(properties) {
                return new CreateGroupResponse(properties);
            };

            CreateGroupResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic"))
                    $root.fermata.v1.Topic.encode(message.topic, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateGroupResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CreateGroupResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.topic = $root.fermata.v1.Topic.decode(reader, reader.size(), $undefined, _depth + 1, message.topic);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateGroupResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CreateGroupResponse";
            };

            return CreateGroupResponse;
        })();

        v1.UpdateGroupRequest = (function() {

            const UpdateGroupRequest = function (properties) {
                this.updateMask = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpdateGroupRequest.prototype.topic = "";
            UpdateGroupRequest.prototype.group = "";
            UpdateGroupRequest.prototype.settings = null;
            UpdateGroupRequest.prototype.updateMask = $util.emptyArray;

            UpdateGroupRequest.create = function(properties) {
                return new UpdateGroupRequest(properties);
            };

            UpdateGroupRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.GroupSettings.encode(message.settings, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.updateMask != null && message.updateMask.length)
                    for (let i = 0; i < message.updateMask.length; ++i)
                        writer.uint32(34).string(message.updateMask[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpdateGroupRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpdateGroupRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (!(message.updateMask && message.updateMask.length))
                                message.updateMask = [];
                            message.updateMask.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpdateGroupRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpdateGroupRequest";
            };

            return UpdateGroupRequest;
        })();

        v1.UpdateGroupResponse = (function() {

            const UpdateGroupResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpdateGroupResponse.prototype.topic = null;

            UpdateGroupResponse.create = function(properties) {
                return new UpdateGroupResponse(properties);
            };

            UpdateGroupResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic"))
                    $root.fermata.v1.Topic.encode(message.topic, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpdateGroupResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpdateGroupResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.topic = $root.fermata.v1.Topic.decode(reader, reader.size(), $undefined, _depth + 1, message.topic);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpdateGroupResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpdateGroupResponse";
            };

            return UpdateGroupResponse;
        })();

        v1.DeleteGroupRequest = (function() {

            const DeleteGroupRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteGroupRequest.prototype.topic = "";
            DeleteGroupRequest.prototype.group = "";

            DeleteGroupRequest.create = function(properties) {
                return new DeleteGroupRequest(properties);
            };

            DeleteGroupRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteGroupRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeleteGroupRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteGroupRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeleteGroupRequest";
            };

            return DeleteGroupRequest;
        })();

        v1.DeleteGroupResponse = (function() {

            const DeleteGroupResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteGroupResponse.prototype.removedMessages = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            DeleteGroupResponse.create = function(properties) {
                return new DeleteGroupResponse(properties);
            };

            DeleteGroupResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.removedMessages != null && $Object.hasOwnProperty.call(message, "removedMessages") && (typeof message.removedMessages === "object" ? message.removedMessages.low || message.removedMessages.high : message.removedMessages !== 0))
                    writer.uint32(8).uint64(message.removedMessages);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteGroupResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeleteGroupResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.removedMessages = value;
                            else
                                delete message.removedMessages;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteGroupResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeleteGroupResponse";
            };

            return DeleteGroupResponse;
        })();

        v1.Backup = (function() {

            const Backup = function(rpcImpl, requestDelimited, responseDelimited) {
                $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
            };

            $Object.defineProperty(Backup.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: Backup, writable: true, enumerable: false, configurable: true });

            Backup.create = function(rpcImpl, requestDelimited, responseDelimited) {
                return new this(rpcImpl, requestDelimited, responseDelimited);
            };



            $Object.defineProperties(Backup.prototype.takeBackup = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Backup.prototype.takeBackup, $root.fermata.v1.TakeBackupRequest, $root.fermata.v1.BackupChunk, request, callback);
            }, {
                name: { value: "TakeBackup" },
                path: { value: "/fermata.v1.Backup/TakeBackup" },
                requestType: { value: "TakeBackupRequest" },
                responseType: { value: "BackupChunk" },
                requestStream: { value: $undefined },
                responseStream: { value: true }
            });

            return Backup;
        })();

        v1.TakeBackupRequest = (function() {

            const TakeBackupRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TakeBackupRequest.create = function(properties) {
                return new TakeBackupRequest(properties);
            };

            TakeBackupRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TakeBackupRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TakeBackupRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TakeBackupRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TakeBackupRequest";
            };

            return TakeBackupRequest;
        })();

        v1.BackupHeader = (function() {

            const BackupHeader = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            BackupHeader.prototype.formatVersion = 0;
            BackupHeader.prototype.clusterId = "";
            BackupHeader.prototype.nodeId = "";
            BackupHeader.prototype.term = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            BackupHeader.prototype.appliedIndex = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            BackupHeader.prototype.takenAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            BackupHeader.prototype.queueEntries = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            BackupHeader.create = function(properties) {
                return new BackupHeader(properties);
            };

            BackupHeader.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.formatVersion != null && $Object.hasOwnProperty.call(message, "formatVersion") && message.formatVersion !== 0)
                    writer.uint32(8).uint32(message.formatVersion);
                if (message.clusterId != null && $Object.hasOwnProperty.call(message, "clusterId") && message.clusterId !== "")
                    writer.uint32(18).string(message.clusterId);
                if (message.nodeId != null && $Object.hasOwnProperty.call(message, "nodeId") && message.nodeId !== "")
                    writer.uint32(26).string(message.nodeId);
                if (message.term != null && $Object.hasOwnProperty.call(message, "term") && (typeof message.term === "object" ? message.term.low || message.term.high : message.term !== 0))
                    writer.uint32(32).uint64(message.term);
                if (message.appliedIndex != null && $Object.hasOwnProperty.call(message, "appliedIndex") && (typeof message.appliedIndex === "object" ? message.appliedIndex.low || message.appliedIndex.high : message.appliedIndex !== 0))
                    writer.uint32(40).uint64(message.appliedIndex);
                if (message.takenAtMs != null && $Object.hasOwnProperty.call(message, "takenAtMs") && (typeof message.takenAtMs === "object" ? message.takenAtMs.low || message.takenAtMs.high : message.takenAtMs !== 0))
                    writer.uint32(48).int64(message.takenAtMs);
                if (message.queueEntries != null && $Object.hasOwnProperty.call(message, "queueEntries") && (typeof message.queueEntries === "object" ? message.queueEntries.low || message.queueEntries.high : message.queueEntries !== 0))
                    writer.uint32(56).uint64(message.queueEntries);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            BackupHeader.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.BackupHeader();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.formatVersion = value;
                            else
                                delete message.formatVersion;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.clusterId = value;
                            else
                                delete message.clusterId;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.nodeId = value;
                            else
                                delete message.nodeId;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.term = value;
                            else
                                delete message.term;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.appliedIndex = value;
                            else
                                delete message.appliedIndex;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.takenAtMs = value;
                            else
                                delete message.takenAtMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.queueEntries = value;
                            else
                                delete message.queueEntries;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            BackupHeader.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.BackupHeader";
            };

            return BackupHeader;
        })();

        v1.BackupData = (function() {

            const BackupData = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            BackupData.prototype.data = $util.newBuffer([]);
            BackupData.prototype.records = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            BackupData.prototype.messages = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            BackupData.create = function(properties) {
                return new BackupData(properties);
            };

            BackupData.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.data != null && $Object.hasOwnProperty.call(message, "data") && message.data.length)
                    writer.uint32(10).bytes(message.data);
                if (message.records != null && $Object.hasOwnProperty.call(message, "records") && (typeof message.records === "object" ? message.records.low || message.records.high : message.records !== 0))
                    writer.uint32(16).uint64(message.records);
                if (message.messages != null && $Object.hasOwnProperty.call(message, "messages") && (typeof message.messages === "object" ? message.messages.low || message.messages.high : message.messages !== 0))
                    writer.uint32(24).uint64(message.messages);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            BackupData.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.BackupData();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.data = value;
                            else
                                delete message.data;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.records = value;
                            else
                                delete message.records;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.messages = value;
                            else
                                delete message.messages;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            BackupData.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.BackupData";
            };

            return BackupData;
        })();

        v1.BackupTrailer = (function() {

            const BackupTrailer = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            BackupTrailer.prototype.dataBytes = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            BackupTrailer.prototype.records = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            BackupTrailer.prototype.messages = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            BackupTrailer.prototype.sha256 = $util.newBuffer([]);

            BackupTrailer.create = function(properties) {
                return new BackupTrailer(properties);
            };

            BackupTrailer.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.dataBytes != null && $Object.hasOwnProperty.call(message, "dataBytes") && (typeof message.dataBytes === "object" ? message.dataBytes.low || message.dataBytes.high : message.dataBytes !== 0))
                    writer.uint32(8).uint64(message.dataBytes);
                if (message.records != null && $Object.hasOwnProperty.call(message, "records") && (typeof message.records === "object" ? message.records.low || message.records.high : message.records !== 0))
                    writer.uint32(16).uint64(message.records);
                if (message.messages != null && $Object.hasOwnProperty.call(message, "messages") && (typeof message.messages === "object" ? message.messages.low || message.messages.high : message.messages !== 0))
                    writer.uint32(24).uint64(message.messages);
                if (message.sha256 != null && $Object.hasOwnProperty.call(message, "sha256") && message.sha256.length)
                    writer.uint32(34).bytes(message.sha256);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            BackupTrailer.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.BackupTrailer();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.dataBytes = value;
                            else
                                delete message.dataBytes;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.records = value;
                            else
                                delete message.records;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.messages = value;
                            else
                                delete message.messages;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.sha256 = value;
                            else
                                delete message.sha256;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            BackupTrailer.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.BackupTrailer";
            };

            return BackupTrailer;
        })();

        v1.BackupChunk = (function() {

            const BackupChunk = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            BackupChunk.prototype.header = null;
            BackupChunk.prototype.data = null;
            BackupChunk.prototype.trailer = null;

            let $oneOfFields;

            $Object.defineProperty(BackupChunk.prototype, "kind", {
                get: $util.oneOfGetter($oneOfFields = ["header", "data", "trailer"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            BackupChunk.create = function(properties) {
                return new BackupChunk(properties);
            };

            BackupChunk.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.header != null && $Object.hasOwnProperty.call(message, "header"))
                    $root.fermata.v1.BackupHeader.encode(message.header, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.data != null && $Object.hasOwnProperty.call(message, "data"))
                    $root.fermata.v1.BackupData.encode(message.data, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.trailer != null && $Object.hasOwnProperty.call(message, "trailer"))
                    $root.fermata.v1.BackupTrailer.encode(message.trailer, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            BackupChunk.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.BackupChunk();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.header = $root.fermata.v1.BackupHeader.decode(reader, reader.size(), $undefined, _depth + 1, message.header);
                            message.kind = "header";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.data = $root.fermata.v1.BackupData.decode(reader, reader.size(), $undefined, _depth + 1, message.data);
                            message.kind = "data";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.trailer = $root.fermata.v1.BackupTrailer.decode(reader, reader.size(), $undefined, _depth + 1, message.trailer);
                            message.kind = "trailer";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            BackupChunk.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.BackupChunk";
            };

            return BackupChunk;
        })();

        v1.Broker = (function() {

            const Broker = function(rpcImpl, requestDelimited, responseDelimited) {
                $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
            };

            $Object.defineProperty(Broker.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: Broker, writable: true, enumerable: false, configurable: true });

            Broker.create = function(rpcImpl, requestDelimited, responseDelimited) {
                return new this(rpcImpl, requestDelimited, responseDelimited);
            };



            $Object.defineProperties(Broker.prototype.publish = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.publish, $root.fermata.v1.PublishRequest, $root.fermata.v1.PublishResponse, request, callback);
            }, {
                name: { value: "Publish" },
                path: { value: "/fermata.v1.Broker/Publish" },
                requestType: { value: "PublishRequest" },
                responseType: { value: "PublishResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.publishStream = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.publishStream, $root.fermata.v1.PublishStreamRequest, $root.fermata.v1.PublishStreamResponse, request, callback);
            }, {
                name: { value: "PublishStream" },
                path: { value: "/fermata.v1.Broker/PublishStream" },
                requestType: { value: "PublishStreamRequest" },
                responseType: { value: "PublishStreamResponse" },
                requestStream: { value: true },
                responseStream: { value: true }
            });



            $Object.defineProperties(Broker.prototype.consume = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.consume, $root.fermata.v1.ConsumeRequest, $root.fermata.v1.ConsumeResponse, request, callback);
            }, {
                name: { value: "Consume" },
                path: { value: "/fermata.v1.Broker/Consume" },
                requestType: { value: "ConsumeRequest" },
                responseType: { value: "ConsumeResponse" },
                requestStream: { value: true },
                responseStream: { value: true }
            });



            $Object.defineProperties(Broker.prototype.ack = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.ack, $root.fermata.v1.AckRequest, $root.fermata.v1.AckResponse, request, callback);
            }, {
                name: { value: "Ack" },
                path: { value: "/fermata.v1.Broker/Ack" },
                requestType: { value: "AckRequest" },
                responseType: { value: "AckResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.nack = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.nack, $root.fermata.v1.NackRequest, $root.fermata.v1.NackResponse, request, callback);
            }, {
                name: { value: "Nack" },
                path: { value: "/fermata.v1.Broker/Nack" },
                requestType: { value: "NackRequest" },
                responseType: { value: "NackResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.extend = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.extend, $root.fermata.v1.ExtendRequest, $root.fermata.v1.ExtendResponse, request, callback);
            }, {
                name: { value: "Extend" },
                path: { value: "/fermata.v1.Broker/Extend" },
                requestType: { value: "ExtendRequest" },
                responseType: { value: "ExtendResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.cancel = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.cancel, $root.fermata.v1.CancelRequest, $root.fermata.v1.CancelResponse, request, callback);
            }, {
                name: { value: "Cancel" },
                path: { value: "/fermata.v1.Broker/Cancel" },
                requestType: { value: "CancelRequest" },
                responseType: { value: "CancelResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.reschedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.reschedule, $root.fermata.v1.RescheduleRequest, $root.fermata.v1.RescheduleResponse, request, callback);
            }, {
                name: { value: "Reschedule" },
                path: { value: "/fermata.v1.Broker/Reschedule" },
                requestType: { value: "RescheduleRequest" },
                responseType: { value: "RescheduleResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.getMessage = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.getMessage, $root.fermata.v1.GetMessageRequest, $root.fermata.v1.GetMessageResponse, request, callback);
            }, {
                name: { value: "GetMessage" },
                path: { value: "/fermata.v1.Broker/GetMessage" },
                requestType: { value: "GetMessageRequest" },
                responseType: { value: "GetMessageResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.listMessages = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.listMessages, $root.fermata.v1.ListMessagesRequest, $root.fermata.v1.ListMessagesResponse, request, callback);
            }, {
                name: { value: "ListMessages" },
                path: { value: "/fermata.v1.Broker/ListMessages" },
                requestType: { value: "ListMessagesRequest" },
                responseType: { value: "ListMessagesResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.getDueForecast = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.getDueForecast, $root.fermata.v1.GetDueForecastRequest, $root.fermata.v1.GetDueForecastResponse, request, callback);
            }, {
                name: { value: "GetDueForecast" },
                path: { value: "/fermata.v1.Broker/GetDueForecast" },
                requestType: { value: "GetDueForecastRequest" },
                responseType: { value: "GetDueForecastResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Broker.prototype.redrive = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Broker.prototype.redrive, $root.fermata.v1.RedriveRequest, $root.fermata.v1.RedriveResponse, request, callback);
            }, {
                name: { value: "Redrive" },
                path: { value: "/fermata.v1.Broker/Redrive" },
                requestType: { value: "RedriveRequest" },
                responseType: { value: "RedriveResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });

            return Broker;
        })();

        v1.PublishMessage = (function() {

            const PublishMessage = function (properties) {
                this.headers = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishMessage.prototype.topic = "";
            PublishMessage.prototype.payload = $util.newBuffer([]);
            PublishMessage.prototype.headers = $util.emptyObject;
            PublishMessage.prototype.delayMs = null;
            PublishMessage.prototype.deliverAtMs = null;
            PublishMessage.prototype.ttlMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            PublishMessage.prototype.key = "";
            PublishMessage.prototype.orderingKey = "";
            PublishMessage.prototype.deliverBeforeMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            let $oneOfFields;

            $Object.defineProperty(PublishMessage.prototype, "schedule", {
                get: $util.oneOfGetter($oneOfFields = ["delayMs", "deliverAtMs"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            PublishMessage.create = function(properties) {
                return new PublishMessage(properties);
            };

            PublishMessage.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.payload != null && $Object.hasOwnProperty.call(message, "payload") && message.payload.length)
                    writer.uint32(18).bytes(message.payload);
                if (message.headers != null && $Object.hasOwnProperty.call(message, "headers"))
                    for (let keys = $Object.keys(message.headers), i = 0; i < keys.length; ++i)
                        writer.uint32(26).fork().uint32(10).string(keys[i]).uint32(18).string(message.headers[keys[i]]).ldelim();
                if (message.delayMs != null && $Object.hasOwnProperty.call(message, "delayMs"))
                    writer.uint32(32).int64(message.delayMs);
                if (message.deliverAtMs != null && $Object.hasOwnProperty.call(message, "deliverAtMs"))
                    writer.uint32(40).int64(message.deliverAtMs);
                if (message.ttlMs != null && $Object.hasOwnProperty.call(message, "ttlMs") && (typeof message.ttlMs === "object" ? message.ttlMs.low || message.ttlMs.high : message.ttlMs !== 0))
                    writer.uint32(48).int64(message.ttlMs);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                    writer.uint32(58).string(message.key);
                if (message.orderingKey != null && $Object.hasOwnProperty.call(message, "orderingKey") && message.orderingKey !== "")
                    writer.uint32(66).string(message.orderingKey);
                if (message.deliverBeforeMs != null && $Object.hasOwnProperty.call(message, "deliverBeforeMs") && (typeof message.deliverBeforeMs === "object" ? message.deliverBeforeMs.low || message.deliverBeforeMs.high : message.deliverBeforeMs !== 0))
                    writer.uint32(72).int64(message.deliverBeforeMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishMessage.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishMessage();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.payload = value;
                            else
                                delete message.payload;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (message.headers === $util.emptyObject)
                                message.headers = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.headers, key);
                            message.headers[key] = value;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            message.delayMs = reader.int64();
                            message.schedule = "delayMs";
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            message.deliverAtMs = reader.int64();
                            message.schedule = "deliverAtMs";
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.ttlMs = value;
                            else
                                delete message.ttlMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.key = value;
                            else
                                delete message.key;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.orderingKey = value;
                            else
                                delete message.orderingKey;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.deliverBeforeMs = value;
                            else
                                delete message.deliverBeforeMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishMessage.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishMessage";
            };

            return PublishMessage;
        })();

        v1.PublishRequest = (function() {

            const PublishRequest = function (properties) {
                this.messages = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishRequest.prototype.messages = $util.emptyArray;
            PublishRequest.prototype.durability = 0;
            PublishRequest.prototype.idempotencyKey = "";

            PublishRequest.create = function(properties) {
                return new PublishRequest(properties);
            };

            PublishRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.messages != null && message.messages.length)
                    for (let i = 0; i < message.messages.length; ++i)
                        $root.fermata.v1.PublishMessage.encode(message.messages[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.durability != null && $Object.hasOwnProperty.call(message, "durability") && message.durability !== 0)
                    writer.uint32(16).int32(message.durability);
                if (message.idempotencyKey != null && $Object.hasOwnProperty.call(message, "idempotencyKey") && message.idempotencyKey !== "")
                    writer.uint32(26).string(message.idempotencyKey);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.messages && message.messages.length))
                                message.messages = [];
                            message.messages.push($root.fermata.v1.PublishMessage.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.durability = value;
                            else
                                delete message.durability;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.idempotencyKey = value;
                            else
                                delete message.idempotencyKey;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishRequest";
            };

            return PublishRequest;
        })();

        v1.PublishResult = (function() {

            const PublishResult = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishResult.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PublishResult.prototype.deduplicated = false;
            PublishResult.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            PublishResult.create = function(properties) {
                return new PublishResult(properties);
            };

            PublishResult.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(8).uint64(message.id);
                if (message.deduplicated != null && $Object.hasOwnProperty.call(message, "deduplicated") && message.deduplicated !== false)
                    writer.uint32(16).bool(message.deduplicated);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(24).int64(message.dueAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishResult.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishResult();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.deduplicated = value;
                            else
                                delete message.deduplicated;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishResult.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishResult";
            };

            return PublishResult;
        })();

        v1.PublishResponse = (function() {

            const PublishResponse = function (properties) {
                this.results = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishResponse.prototype.results = $util.emptyArray;

            PublishResponse.create = function(properties) {
                return new PublishResponse(properties);
            };

            PublishResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.results != null && message.results.length)
                    for (let i = 0; i < message.results.length; ++i)
                        $root.fermata.v1.PublishResult.encode(message.results[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.results && message.results.length))
                                message.results = [];
                            message.results.push($root.fermata.v1.PublishResult.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishResponse";
            };

            return PublishResponse;
        })();

        v1.PublishStreamRequest = (function() {

            const PublishStreamRequest = function (properties) {
                this.messages = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishStreamRequest.prototype.sequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PublishStreamRequest.prototype.messages = $util.emptyArray;
            PublishStreamRequest.prototype.durability = 0;
            PublishStreamRequest.prototype.idempotencyKey = "";

            PublishStreamRequest.create = function(properties) {
                return new PublishStreamRequest(properties);
            };

            PublishStreamRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence") && (typeof message.sequence === "object" ? message.sequence.low || message.sequence.high : message.sequence !== 0))
                    writer.uint32(8).uint64(message.sequence);
                if (message.messages != null && message.messages.length)
                    for (let i = 0; i < message.messages.length; ++i)
                        $root.fermata.v1.PublishMessage.encode(message.messages[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.durability != null && $Object.hasOwnProperty.call(message, "durability") && message.durability !== 0)
                    writer.uint32(24).int32(message.durability);
                if (message.idempotencyKey != null && $Object.hasOwnProperty.call(message, "idempotencyKey") && message.idempotencyKey !== "")
                    writer.uint32(34).string(message.idempotencyKey);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishStreamRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishStreamRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.sequence = value;
                            else
                                delete message.sequence;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.messages && message.messages.length))
                                message.messages = [];
                            message.messages.push($root.fermata.v1.PublishMessage.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.durability = value;
                            else
                                delete message.durability;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.idempotencyKey = value;
                            else
                                delete message.idempotencyKey;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishStreamRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishStreamRequest";
            };

            return PublishStreamRequest;
        })();

        v1.PublishStreamResponse = (function() {

            const PublishStreamResponse = function (properties) {
                this.results = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishStreamResponse.prototype.sequence = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PublishStreamResponse.prototype.results = $util.emptyArray;
            PublishStreamResponse.prototype.error = null;

            PublishStreamResponse.create = function(properties) {
                return new PublishStreamResponse(properties);
            };

            PublishStreamResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sequence != null && $Object.hasOwnProperty.call(message, "sequence") && (typeof message.sequence === "object" ? message.sequence.low || message.sequence.high : message.sequence !== 0))
                    writer.uint32(8).uint64(message.sequence);
                if (message.results != null && message.results.length)
                    for (let i = 0; i < message.results.length; ++i)
                        $root.fermata.v1.PublishResult.encode(message.results[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.error != null && $Object.hasOwnProperty.call(message, "error"))
                    $root.fermata.v1.ErrorStatus.encode(message.error, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishStreamResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishStreamResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.sequence = value;
                            else
                                delete message.sequence;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.results && message.results.length))
                                message.results = [];
                            message.results.push($root.fermata.v1.PublishResult.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.error = $root.fermata.v1.ErrorStatus.decode(reader, reader.size(), $undefined, _depth + 1, message.error);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishStreamResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishStreamResponse";
            };

            return PublishStreamResponse;
        })();

        v1.Subscribe = (function() {

            const Subscribe = function (properties) {
                this.heldTags = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Subscribe.prototype.topic = "";
            Subscribe.prototype.group = "";
            Subscribe.prototype.prefetch = 0;
            Subscribe.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Subscribe.prototype.holdsAhead = false;
            Subscribe.prototype.consumerId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Subscribe.prototype.heldTags = $util.emptyArray;

            Subscribe.create = function(properties) {
                return new Subscribe(properties);
            };

            Subscribe.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.prefetch != null && $Object.hasOwnProperty.call(message, "prefetch") && message.prefetch !== 0)
                    writer.uint32(24).uint32(message.prefetch);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(32).int64(message.leaseMs);
                if (message.holdsAhead != null && $Object.hasOwnProperty.call(message, "holdsAhead") && message.holdsAhead !== false)
                    writer.uint32(40).bool(message.holdsAhead);
                if (message.consumerId != null && $Object.hasOwnProperty.call(message, "consumerId") && (typeof message.consumerId === "object" ? message.consumerId.low || message.consumerId.high : message.consumerId !== 0))
                    writer.uint32(48).uint64(message.consumerId);
                if (message.heldTags != null && message.heldTags.length)
                    for (let i = 0; i < message.heldTags.length; ++i)
                        writer.uint32(58).bytes(message.heldTags[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Subscribe.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Subscribe();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.prefetch = value;
                            else
                                delete message.prefetch;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.holdsAhead = value;
                            else
                                delete message.holdsAhead;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.consumerId = value;
                            else
                                delete message.consumerId;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if (!(message.heldTags && message.heldTags.length))
                                message.heldTags = [];
                            message.heldTags.push(reader.bytes());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Subscribe.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Subscribe";
            };

            return Subscribe;
        })();

        v1.Credit = (function() {

            const Credit = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Credit.prototype.n = 0;

            Credit.create = function(properties) {
                return new Credit(properties);
            };

            Credit.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.n != null && $Object.hasOwnProperty.call(message, "n") && message.n !== 0)
                    writer.uint32(8).uint32(message.n);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Credit.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Credit();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.n = value;
                            else
                                delete message.n;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Credit.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Credit";
            };

            return Credit;
        })();

        v1.StreamAck = (function() {

            const StreamAck = function (properties) {
                this.tags = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            StreamAck.prototype.tags = $util.emptyArray;
            StreamAck.prototype.requestId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            StreamAck.create = function(properties) {
                return new StreamAck(properties);
            };

            StreamAck.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tags != null && message.tags.length)
                    for (let i = 0; i < message.tags.length; ++i)
                        writer.uint32(10).bytes(message.tags[i]);
                if (message.requestId != null && $Object.hasOwnProperty.call(message, "requestId") && (typeof message.requestId === "object" ? message.requestId.low || message.requestId.high : message.requestId !== 0))
                    writer.uint32(16).uint64(message.requestId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            StreamAck.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.StreamAck();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.tags && message.tags.length))
                                message.tags = [];
                            message.tags.push(reader.bytes());
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.requestId = value;
                            else
                                delete message.requestId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            StreamAck.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.StreamAck";
            };

            return StreamAck;
        })();

        v1.StreamNack = (function() {

            const StreamNack = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            StreamNack.prototype.tag = $util.newBuffer([]);
            StreamNack.prototype.delayMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            StreamNack.prototype.requestId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            StreamNack.prototype.error = "";

            StreamNack.create = function(properties) {
                return new StreamNack(properties);
            };

            StreamNack.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.delayMs != null && $Object.hasOwnProperty.call(message, "delayMs") && (typeof message.delayMs === "object" ? message.delayMs.low || message.delayMs.high : message.delayMs !== 0))
                    writer.uint32(16).int64(message.delayMs);
                if (message.requestId != null && $Object.hasOwnProperty.call(message, "requestId") && (typeof message.requestId === "object" ? message.requestId.low || message.requestId.high : message.requestId !== 0))
                    writer.uint32(24).uint64(message.requestId);
                if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                    writer.uint32(34).string(message.error);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            StreamNack.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.StreamNack();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.delayMs = value;
                            else
                                delete message.delayMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.requestId = value;
                            else
                                delete message.requestId;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.error = value;
                            else
                                delete message.error;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            StreamNack.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.StreamNack";
            };

            return StreamNack;
        })();

        v1.StreamExtend = (function() {

            const StreamExtend = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            StreamExtend.prototype.tag = $util.newBuffer([]);
            StreamExtend.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            StreamExtend.prototype.requestId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            StreamExtend.create = function(properties) {
                return new StreamExtend(properties);
            };

            StreamExtend.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(16).int64(message.leaseMs);
                if (message.requestId != null && $Object.hasOwnProperty.call(message, "requestId") && (typeof message.requestId === "object" ? message.requestId.low || message.requestId.high : message.requestId !== 0))
                    writer.uint32(24).uint64(message.requestId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            StreamExtend.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.StreamExtend();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.requestId = value;
                            else
                                delete message.requestId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            StreamExtend.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.StreamExtend";
            };

            return StreamExtend;
        })();

        v1.ConsumeRequest = (function() {

            const ConsumeRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ConsumeRequest.prototype.subscribe = null;
            ConsumeRequest.prototype.credit = null;
            ConsumeRequest.prototype.ack = null;
            ConsumeRequest.prototype.nack = null;
            ConsumeRequest.prototype.extend = null;

            let $oneOfFields;

            $Object.defineProperty(ConsumeRequest.prototype, "kind", {
                get: $util.oneOfGetter($oneOfFields = ["subscribe", "credit", "ack", "nack", "extend"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            ConsumeRequest.create = function(properties) {
                return new ConsumeRequest(properties);
            };

            ConsumeRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.subscribe != null && $Object.hasOwnProperty.call(message, "subscribe"))
                    $root.fermata.v1.Subscribe.encode(message.subscribe, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.credit != null && $Object.hasOwnProperty.call(message, "credit"))
                    $root.fermata.v1.Credit.encode(message.credit, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.ack != null && $Object.hasOwnProperty.call(message, "ack"))
                    $root.fermata.v1.StreamAck.encode(message.ack, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.nack != null && $Object.hasOwnProperty.call(message, "nack"))
                    $root.fermata.v1.StreamNack.encode(message.nack, writer.uint32(34).fork(), _depth + 1).ldelim();
                if (message.extend != null && $Object.hasOwnProperty.call(message, "extend"))
                    $root.fermata.v1.StreamExtend.encode(message.extend, writer.uint32(42).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ConsumeRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ConsumeRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.subscribe = $root.fermata.v1.Subscribe.decode(reader, reader.size(), $undefined, _depth + 1, message.subscribe);
                            message.kind = "subscribe";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.credit = $root.fermata.v1.Credit.decode(reader, reader.size(), $undefined, _depth + 1, message.credit);
                            message.kind = "credit";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.ack = $root.fermata.v1.StreamAck.decode(reader, reader.size(), $undefined, _depth + 1, message.ack);
                            message.kind = "ack";
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            message.nack = $root.fermata.v1.StreamNack.decode(reader, reader.size(), $undefined, _depth + 1, message.nack);
                            message.kind = "nack";
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            message.extend = $root.fermata.v1.StreamExtend.decode(reader, reader.size(), $undefined, _depth + 1, message.extend);
                            message.kind = "extend";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ConsumeRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ConsumeRequest";
            };

            return ConsumeRequest;
        })();

        v1.Delivery = (function() {

            const Delivery = function (properties) {
                this.headers = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Delivery.prototype.tag = $util.newBuffer([]);
            Delivery.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Delivery.prototype.topic = "";
            Delivery.prototype.group = "";
            Delivery.prototype.payload = $util.newBuffer([]);
            Delivery.prototype.headers = $util.emptyObject;
            Delivery.prototype.key = "";
            Delivery.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Delivery.prototype.enqueuedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Delivery.prototype.attempt = 0;
            Delivery.prototype.leaseExpiresAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Delivery.prototype.startsAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Delivery.prototype.maxAttempts = 0;

            Delivery.create = function(properties) {
                return new Delivery(properties);
            };

            Delivery.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(16).uint64(message.id);
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(26).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(34).string(message.group);
                if (message.payload != null && $Object.hasOwnProperty.call(message, "payload") && message.payload.length)
                    writer.uint32(42).bytes(message.payload);
                if (message.headers != null && $Object.hasOwnProperty.call(message, "headers"))
                    for (let keys = $Object.keys(message.headers), i = 0; i < keys.length; ++i)
                        writer.uint32(50).fork().uint32(10).string(keys[i]).uint32(18).string(message.headers[keys[i]]).ldelim();
                if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                    writer.uint32(58).string(message.key);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(64).int64(message.dueAtMs);
                if (message.enqueuedAtMs != null && $Object.hasOwnProperty.call(message, "enqueuedAtMs") && (typeof message.enqueuedAtMs === "object" ? message.enqueuedAtMs.low || message.enqueuedAtMs.high : message.enqueuedAtMs !== 0))
                    writer.uint32(72).int64(message.enqueuedAtMs);
                if (message.attempt != null && $Object.hasOwnProperty.call(message, "attempt") && message.attempt !== 0)
                    writer.uint32(80).uint32(message.attempt);
                if (message.leaseExpiresAtMs != null && $Object.hasOwnProperty.call(message, "leaseExpiresAtMs") && (typeof message.leaseExpiresAtMs === "object" ? message.leaseExpiresAtMs.low || message.leaseExpiresAtMs.high : message.leaseExpiresAtMs !== 0))
                    writer.uint32(88).int64(message.leaseExpiresAtMs);
                if (message.startsAtMs != null && $Object.hasOwnProperty.call(message, "startsAtMs") && (typeof message.startsAtMs === "object" ? message.startsAtMs.low || message.startsAtMs.high : message.startsAtMs !== 0))
                    writer.uint32(96).int64(message.startsAtMs);
                if (message.maxAttempts != null && $Object.hasOwnProperty.call(message, "maxAttempts") && message.maxAttempts !== 0)
                    writer.uint32(104).uint32(message.maxAttempts);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Delivery.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Delivery();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.payload = value;
                            else
                                delete message.payload;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if (message.headers === $util.emptyObject)
                                message.headers = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.headers, key);
                            message.headers[key] = value;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.key = value;
                            else
                                delete message.key;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.enqueuedAtMs = value;
                            else
                                delete message.enqueuedAtMs;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.attempt = value;
                            else
                                delete message.attempt;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseExpiresAtMs = value;
                            else
                                delete message.leaseExpiresAtMs;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.startsAtMs = value;
                            else
                                delete message.startsAtMs;
                            continue;
                        }
                    case 13: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.maxAttempts = value;
                            else
                                delete message.maxAttempts;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Delivery.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Delivery";
            };

            return Delivery;
        })();

        v1.DeliveryBatch = (function() {

            const DeliveryBatch = function (properties) {
                this.deliveries = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeliveryBatch.prototype.deliveries = $util.emptyArray;
            DeliveryBatch.prototype.sentAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            DeliveryBatch.create = function(properties) {
                return new DeliveryBatch(properties);
            };

            DeliveryBatch.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.deliveries != null && message.deliveries.length)
                    for (let i = 0; i < message.deliveries.length; ++i)
                        $root.fermata.v1.Delivery.encode(message.deliveries[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.sentAtMs != null && $Object.hasOwnProperty.call(message, "sentAtMs") && (typeof message.sentAtMs === "object" ? message.sentAtMs.low || message.sentAtMs.high : message.sentAtMs !== 0))
                    writer.uint32(16).int64(message.sentAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeliveryBatch.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeliveryBatch();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.deliveries && message.deliveries.length))
                                message.deliveries = [];
                            message.deliveries.push($root.fermata.v1.Delivery.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.sentAtMs = value;
                            else
                                delete message.sentAtMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeliveryBatch.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeliveryBatch";
            };

            return DeliveryBatch;
        })();

        v1.Subscribed = (function() {

            const Subscribed = function (properties) {
                this.releasedTags = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Subscribed.prototype.topic = "";
            Subscribed.prototype.group = "";
            Subscribed.prototype.prefetch = 0;
            Subscribed.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Subscribed.prototype.releasedTags = $util.emptyArray;

            Subscribed.create = function(properties) {
                return new Subscribed(properties);
            };

            Subscribed.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.prefetch != null && $Object.hasOwnProperty.call(message, "prefetch") && message.prefetch !== 0)
                    writer.uint32(24).uint32(message.prefetch);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(32).int64(message.leaseMs);
                if (message.releasedTags != null && message.releasedTags.length)
                    for (let i = 0; i < message.releasedTags.length; ++i)
                        writer.uint32(42).bytes(message.releasedTags[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Subscribed.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Subscribed();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.prefetch = value;
                            else
                                delete message.prefetch;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if (!(message.releasedTags && message.releasedTags.length))
                                message.releasedTags = [];
                            message.releasedTags.push(reader.bytes());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Subscribed.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Subscribed";
            };

            return Subscribed;
        })();

        v1.SettleStatus = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "SETTLE_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "SETTLE_STATUS_OK"] = 1;
            values[valuesById[2] = "SETTLE_STATUS_LEASE_EXPIRED"] = 2;
            return values;
        })();

        v1.SettleOutcome = (function() {

            const SettleOutcome = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            SettleOutcome.prototype.tag = $util.newBuffer([]);
            SettleOutcome.prototype.status = 0;
            SettleOutcome.prototype.newTag = $util.newBuffer([]);
            SettleOutcome.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            SettleOutcome.create = function(properties) {
                return new SettleOutcome(properties);
            };

            SettleOutcome.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(16).int32(message.status);
                if (message.newTag != null && $Object.hasOwnProperty.call(message, "newTag") && message.newTag.length)
                    writer.uint32(26).bytes(message.newTag);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(32).int64(message.dueAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            SettleOutcome.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.SettleOutcome();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.newTag = value;
                            else
                                delete message.newTag;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            SettleOutcome.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.SettleOutcome";
            };

            return SettleOutcome;
        })();

        v1.SettleResult = (function() {

            const SettleResult = function (properties) {
                this.outcomes = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            SettleResult.prototype.requestId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            SettleResult.prototype.outcomes = $util.emptyArray;
            SettleResult.prototype.error = null;

            SettleResult.create = function(properties) {
                return new SettleResult(properties);
            };

            SettleResult.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.requestId != null && $Object.hasOwnProperty.call(message, "requestId") && (typeof message.requestId === "object" ? message.requestId.low || message.requestId.high : message.requestId !== 0))
                    writer.uint32(8).uint64(message.requestId);
                if (message.outcomes != null && message.outcomes.length)
                    for (let i = 0; i < message.outcomes.length; ++i)
                        $root.fermata.v1.SettleOutcome.encode(message.outcomes[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.error != null && $Object.hasOwnProperty.call(message, "error"))
                    $root.fermata.v1.ErrorStatus.encode(message.error, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            SettleResult.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.SettleResult();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.requestId = value;
                            else
                                delete message.requestId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.outcomes && message.outcomes.length))
                                message.outcomes = [];
                            message.outcomes.push($root.fermata.v1.SettleOutcome.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.error = $root.fermata.v1.ErrorStatus.decode(reader, reader.size(), $undefined, _depth + 1, message.error);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            SettleResult.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.SettleResult";
            };

            return SettleResult;
        })();

        v1.ConsumeResponse = (function() {

            const ConsumeResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ConsumeResponse.prototype.subscribed = null;
            ConsumeResponse.prototype.deliveries = null;
            ConsumeResponse.prototype.result = null;

            let $oneOfFields;

            $Object.defineProperty(ConsumeResponse.prototype, "kind", {
                get: $util.oneOfGetter($oneOfFields = ["subscribed", "deliveries", "result"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            ConsumeResponse.create = function(properties) {
                return new ConsumeResponse(properties);
            };

            ConsumeResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.subscribed != null && $Object.hasOwnProperty.call(message, "subscribed"))
                    $root.fermata.v1.Subscribed.encode(message.subscribed, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.deliveries != null && $Object.hasOwnProperty.call(message, "deliveries"))
                    $root.fermata.v1.DeliveryBatch.encode(message.deliveries, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.result != null && $Object.hasOwnProperty.call(message, "result"))
                    $root.fermata.v1.SettleResult.encode(message.result, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ConsumeResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ConsumeResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.subscribed = $root.fermata.v1.Subscribed.decode(reader, reader.size(), $undefined, _depth + 1, message.subscribed);
                            message.kind = "subscribed";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.deliveries = $root.fermata.v1.DeliveryBatch.decode(reader, reader.size(), $undefined, _depth + 1, message.deliveries);
                            message.kind = "deliveries";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.result = $root.fermata.v1.SettleResult.decode(reader, reader.size(), $undefined, _depth + 1, message.result);
                            message.kind = "result";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ConsumeResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ConsumeResponse";
            };

            return ConsumeResponse;
        })();

        v1.AckRequest = (function() {

            const AckRequest = function (properties) {
                this.tags = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            AckRequest.prototype.tags = $util.emptyArray;

            AckRequest.create = function(properties) {
                return new AckRequest(properties);
            };

            AckRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tags != null && message.tags.length)
                    for (let i = 0; i < message.tags.length; ++i)
                        writer.uint32(10).bytes(message.tags[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            AckRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.AckRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.tags && message.tags.length))
                                message.tags = [];
                            message.tags.push(reader.bytes());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            AckRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.AckRequest";
            };

            return AckRequest;
        })();

        v1.AckResponse = (function() {

            const AckResponse = function (properties) {
                this.outcomes = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            AckResponse.prototype.outcomes = $util.emptyArray;

            AckResponse.create = function(properties) {
                return new AckResponse(properties);
            };

            AckResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.outcomes != null && message.outcomes.length)
                    for (let i = 0; i < message.outcomes.length; ++i)
                        $root.fermata.v1.SettleOutcome.encode(message.outcomes[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            AckResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.AckResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.outcomes && message.outcomes.length))
                                message.outcomes = [];
                            message.outcomes.push($root.fermata.v1.SettleOutcome.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            AckResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.AckResponse";
            };

            return AckResponse;
        })();

        v1.NackRequest = (function() {

            const NackRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NackRequest.prototype.tag = $util.newBuffer([]);
            NackRequest.prototype.delayMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            NackRequest.prototype.error = "";

            NackRequest.create = function(properties) {
                return new NackRequest(properties);
            };

            NackRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.delayMs != null && $Object.hasOwnProperty.call(message, "delayMs") && (typeof message.delayMs === "object" ? message.delayMs.low || message.delayMs.high : message.delayMs !== 0))
                    writer.uint32(16).int64(message.delayMs);
                if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                    writer.uint32(26).string(message.error);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NackRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.NackRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.delayMs = value;
                            else
                                delete message.delayMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.error = value;
                            else
                                delete message.error;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NackRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.NackRequest";
            };

            return NackRequest;
        })();

        v1.NackResponse = (function() {

            const NackResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NackResponse.prototype.outcome = null;

            NackResponse.create = function(properties) {
                return new NackResponse(properties);
            };

            NackResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.outcome != null && $Object.hasOwnProperty.call(message, "outcome"))
                    $root.fermata.v1.SettleOutcome.encode(message.outcome, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NackResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.NackResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.outcome = $root.fermata.v1.SettleOutcome.decode(reader, reader.size(), $undefined, _depth + 1, message.outcome);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NackResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.NackResponse";
            };

            return NackResponse;
        })();

        v1.ExtendRequest = (function() {

            const ExtendRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ExtendRequest.prototype.tag = $util.newBuffer([]);
            ExtendRequest.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            ExtendRequest.create = function(properties) {
                return new ExtendRequest(properties);
            };

            ExtendRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(16).int64(message.leaseMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ExtendRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ExtendRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ExtendRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ExtendRequest";
            };

            return ExtendRequest;
        })();

        v1.ExtendResponse = (function() {

            const ExtendResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ExtendResponse.prototype.outcome = null;

            ExtendResponse.create = function(properties) {
                return new ExtendResponse(properties);
            };

            ExtendResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.outcome != null && $Object.hasOwnProperty.call(message, "outcome"))
                    $root.fermata.v1.SettleOutcome.encode(message.outcome, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ExtendResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ExtendResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.outcome = $root.fermata.v1.SettleOutcome.decode(reader, reader.size(), $undefined, _depth + 1, message.outcome);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ExtendResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ExtendResponse";
            };

            return ExtendResponse;
        })();

        v1.CancelStatus = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "CANCEL_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "CANCEL_STATUS_CANCELLED"] = 1;
            values[valuesById[2] = "CANCEL_STATUS_NOT_FOUND"] = 2;
            values[valuesById[3] = "CANCEL_STATUS_IN_FLIGHT"] = 3;
            values[valuesById[4] = "CANCEL_STATUS_ALREADY_DONE"] = 4;
            return values;
        })();

        v1.CancelRequest = (function() {

            const CancelRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CancelRequest.prototype.topic = "";
            CancelRequest.prototype.id = null;
            CancelRequest.prototype.key = null;

            let $oneOfFields;

            $Object.defineProperty(CancelRequest.prototype, "target", {
                get: $util.oneOfGetter($oneOfFields = ["id", "key"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            CancelRequest.create = function(properties) {
                return new CancelRequest(properties);
            };

            CancelRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                    writer.uint32(16).uint64(message.id);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    writer.uint32(26).string(message.key);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CancelRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CancelRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            message.id = reader.uint64();
                            message.target = "id";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.key = reader.stringVerify();
                            message.target = "key";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CancelRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CancelRequest";
            };

            return CancelRequest;
        })();

        v1.CancelResponse = (function() {

            const CancelResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CancelResponse.prototype.status = 0;
            CancelResponse.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            CancelResponse.create = function(properties) {
                return new CancelResponse(properties);
            };

            CancelResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(8).int32(message.status);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(16).uint64(message.id);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CancelResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CancelResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CancelResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CancelResponse";
            };

            return CancelResponse;
        })();

        v1.RescheduleStatus = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "RESCHEDULE_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "RESCHEDULE_STATUS_RESCHEDULED"] = 1;
            values[valuesById[2] = "RESCHEDULE_STATUS_NOT_FOUND"] = 2;
            values[valuesById[3] = "RESCHEDULE_STATUS_IN_FLIGHT"] = 3;
            values[valuesById[4] = "RESCHEDULE_STATUS_ALREADY_DONE"] = 4;
            return values;
        })();

        v1.RescheduleRequest = (function() {

            const RescheduleRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RescheduleRequest.prototype.topic = "";
            RescheduleRequest.prototype.id = null;
            RescheduleRequest.prototype.key = null;
            RescheduleRequest.prototype.delayMs = null;
            RescheduleRequest.prototype.deliverAtMs = null;

            let $oneOfFields;

            $Object.defineProperty(RescheduleRequest.prototype, "target", {
                get: $util.oneOfGetter($oneOfFields = ["id", "key"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            $Object.defineProperty(RescheduleRequest.prototype, "schedule", {
                get: $util.oneOfGetter($oneOfFields = ["delayMs", "deliverAtMs"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            RescheduleRequest.create = function(properties) {
                return new RescheduleRequest(properties);
            };

            RescheduleRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                    writer.uint32(16).uint64(message.id);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    writer.uint32(26).string(message.key);
                if (message.delayMs != null && $Object.hasOwnProperty.call(message, "delayMs"))
                    writer.uint32(32).int64(message.delayMs);
                if (message.deliverAtMs != null && $Object.hasOwnProperty.call(message, "deliverAtMs"))
                    writer.uint32(40).int64(message.deliverAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RescheduleRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RescheduleRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            message.id = reader.uint64();
                            message.target = "id";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.key = reader.stringVerify();
                            message.target = "key";
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            message.delayMs = reader.int64();
                            message.schedule = "delayMs";
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            message.deliverAtMs = reader.int64();
                            message.schedule = "deliverAtMs";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RescheduleRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RescheduleRequest";
            };

            return RescheduleRequest;
        })();

        v1.RescheduleResponse = (function() {

            const RescheduleResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RescheduleResponse.prototype.status = 0;
            RescheduleResponse.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            RescheduleResponse.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            RescheduleResponse.create = function(properties) {
                return new RescheduleResponse(properties);
            };

            RescheduleResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(8).int32(message.status);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(16).int64(message.dueAtMs);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(24).uint64(message.id);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RescheduleResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RescheduleResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RescheduleResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RescheduleResponse";
            };

            return RescheduleResponse;
        })();

        v1.MessageState = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "MESSAGE_STATE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "MESSAGE_STATE_PENDING"] = 1;
            values[valuesById[2] = "MESSAGE_STATE_IN_FLIGHT"] = 2;
            values[valuesById[3] = "MESSAGE_STATE_DONE"] = 3;
            values[valuesById[4] = "MESSAGE_STATE_DEAD_LETTERED"] = 4;
            return values;
        })();

        v1.GroupState = (function() {

            const GroupState = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GroupState.prototype.group = "";
            GroupState.prototype.state = 0;
            GroupState.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            GroupState.prototype.attempt = 0;

            GroupState.create = function(properties) {
                return new GroupState(properties);
            };

            GroupState.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(10).string(message.group);
                if (message.state != null && $Object.hasOwnProperty.call(message, "state") && message.state !== 0)
                    writer.uint32(16).int32(message.state);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(24).int64(message.dueAtMs);
                if (message.attempt != null && $Object.hasOwnProperty.call(message, "attempt") && message.attempt !== 0)
                    writer.uint32(32).uint32(message.attempt);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GroupState.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GroupState();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.state = value;
                            else
                                delete message.state;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.attempt = value;
                            else
                                delete message.attempt;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GroupState.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GroupState";
            };

            return GroupState;
        })();

        v1.MessageInfo = (function() {

            const MessageInfo = function (properties) {
                this.headers = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            MessageInfo.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            MessageInfo.prototype.topic = "";
            MessageInfo.prototype.payload = $util.newBuffer([]);
            MessageInfo.prototype.headers = $util.emptyObject;
            MessageInfo.prototype.key = "";
            MessageInfo.prototype.enqueuedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            MessageInfo.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            MessageInfo.prototype.expireAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            MessageInfo.prototype.orderingKey = "";
            MessageInfo.prototype.deliverBeforeMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            MessageInfo.create = function(properties) {
                return new MessageInfo(properties);
            };

            MessageInfo.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(8).uint64(message.id);
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(18).string(message.topic);
                if (message.payload != null && $Object.hasOwnProperty.call(message, "payload") && message.payload.length)
                    writer.uint32(26).bytes(message.payload);
                if (message.headers != null && $Object.hasOwnProperty.call(message, "headers"))
                    for (let keys = $Object.keys(message.headers), i = 0; i < keys.length; ++i)
                        writer.uint32(34).fork().uint32(10).string(keys[i]).uint32(18).string(message.headers[keys[i]]).ldelim();
                if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                    writer.uint32(42).string(message.key);
                if (message.enqueuedAtMs != null && $Object.hasOwnProperty.call(message, "enqueuedAtMs") && (typeof message.enqueuedAtMs === "object" ? message.enqueuedAtMs.low || message.enqueuedAtMs.high : message.enqueuedAtMs !== 0))
                    writer.uint32(48).int64(message.enqueuedAtMs);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(56).int64(message.dueAtMs);
                if (message.expireAtMs != null && $Object.hasOwnProperty.call(message, "expireAtMs") && (typeof message.expireAtMs === "object" ? message.expireAtMs.low || message.expireAtMs.high : message.expireAtMs !== 0))
                    writer.uint32(64).int64(message.expireAtMs);
                if (message.orderingKey != null && $Object.hasOwnProperty.call(message, "orderingKey") && message.orderingKey !== "")
                    writer.uint32(74).string(message.orderingKey);
                if (message.deliverBeforeMs != null && $Object.hasOwnProperty.call(message, "deliverBeforeMs") && (typeof message.deliverBeforeMs === "object" ? message.deliverBeforeMs.low || message.deliverBeforeMs.high : message.deliverBeforeMs !== 0))
                    writer.uint32(80).int64(message.deliverBeforeMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            MessageInfo.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.MessageInfo();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.payload = value;
                            else
                                delete message.payload;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (message.headers === $util.emptyObject)
                                message.headers = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.headers, key);
                            message.headers[key] = value;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.key = value;
                            else
                                delete message.key;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.enqueuedAtMs = value;
                            else
                                delete message.enqueuedAtMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.expireAtMs = value;
                            else
                                delete message.expireAtMs;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.orderingKey = value;
                            else
                                delete message.orderingKey;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.deliverBeforeMs = value;
                            else
                                delete message.deliverBeforeMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            MessageInfo.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.MessageInfo";
            };

            return MessageInfo;
        })();

        v1.GetMessageRequest = (function() {

            const GetMessageRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetMessageRequest.prototype.topic = "";
            GetMessageRequest.prototype.id = null;
            GetMessageRequest.prototype.key = null;

            let $oneOfFields;

            $Object.defineProperty(GetMessageRequest.prototype, "target", {
                get: $util.oneOfGetter($oneOfFields = ["id", "key"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            GetMessageRequest.create = function(properties) {
                return new GetMessageRequest(properties);
            };

            GetMessageRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                    writer.uint32(16).uint64(message.id);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    writer.uint32(26).string(message.key);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetMessageRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetMessageRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            message.id = reader.uint64();
                            message.target = "id";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.key = reader.stringVerify();
                            message.target = "key";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetMessageRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetMessageRequest";
            };

            return GetMessageRequest;
        })();

        v1.GetMessageResponse = (function() {

            const GetMessageResponse = function (properties) {
                this.groups = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetMessageResponse.prototype.message = null;
            GetMessageResponse.prototype.groups = $util.emptyArray;

            GetMessageResponse.create = function(properties) {
                return new GetMessageResponse(properties);
            };

            GetMessageResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.message != null && $Object.hasOwnProperty.call(message, "message"))
                    $root.fermata.v1.MessageInfo.encode(message.message, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.groups != null && message.groups.length)
                    for (let i = 0; i < message.groups.length; ++i)
                        $root.fermata.v1.GroupState.encode(message.groups[i], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetMessageResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetMessageResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.message = $root.fermata.v1.MessageInfo.decode(reader, reader.size(), $undefined, _depth + 1, message.message);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.groups && message.groups.length))
                                message.groups = [];
                            message.groups.push($root.fermata.v1.GroupState.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetMessageResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetMessageResponse";
            };

            return GetMessageResponse;
        })();

        v1.ListMessagesRequest = (function() {

            const ListMessagesRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListMessagesRequest.prototype.topic = "";
            ListMessagesRequest.prototype.group = "";
            ListMessagesRequest.prototype.fromDueMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ListMessagesRequest.prototype.toDueMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ListMessagesRequest.prototype.limit = 0;
            ListMessagesRequest.prototype.pageToken = $util.newBuffer([]);

            ListMessagesRequest.create = function(properties) {
                return new ListMessagesRequest(properties);
            };

            ListMessagesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.fromDueMs != null && $Object.hasOwnProperty.call(message, "fromDueMs") && (typeof message.fromDueMs === "object" ? message.fromDueMs.low || message.fromDueMs.high : message.fromDueMs !== 0))
                    writer.uint32(24).int64(message.fromDueMs);
                if (message.toDueMs != null && $Object.hasOwnProperty.call(message, "toDueMs") && (typeof message.toDueMs === "object" ? message.toDueMs.low || message.toDueMs.high : message.toDueMs !== 0))
                    writer.uint32(32).int64(message.toDueMs);
                if (message.limit != null && $Object.hasOwnProperty.call(message, "limit") && message.limit !== 0)
                    writer.uint32(40).uint32(message.limit);
                if (message.pageToken != null && $Object.hasOwnProperty.call(message, "pageToken") && message.pageToken.length)
                    writer.uint32(50).bytes(message.pageToken);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListMessagesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListMessagesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.fromDueMs = value;
                            else
                                delete message.fromDueMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.toDueMs = value;
                            else
                                delete message.toDueMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.limit = value;
                            else
                                delete message.limit;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.pageToken = value;
                            else
                                delete message.pageToken;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListMessagesRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListMessagesRequest";
            };

            return ListMessagesRequest;
        })();

        v1.ListedMessage = (function() {

            const ListedMessage = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListedMessage.prototype.message = null;
            ListedMessage.prototype.state = 0;
            ListedMessage.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ListedMessage.prototype.attempt = 0;
            ListedMessage.prototype.tag = $util.newBuffer([]);

            ListedMessage.create = function(properties) {
                return new ListedMessage(properties);
            };

            ListedMessage.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.message != null && $Object.hasOwnProperty.call(message, "message"))
                    $root.fermata.v1.MessageInfo.encode(message.message, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.state != null && $Object.hasOwnProperty.call(message, "state") && message.state !== 0)
                    writer.uint32(16).int32(message.state);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(24).int64(message.dueAtMs);
                if (message.attempt != null && $Object.hasOwnProperty.call(message, "attempt") && message.attempt !== 0)
                    writer.uint32(32).uint32(message.attempt);
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(42).bytes(message.tag);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListedMessage.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListedMessage();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.message = $root.fermata.v1.MessageInfo.decode(reader, reader.size(), $undefined, _depth + 1, message.message);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.state = value;
                            else
                                delete message.state;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.attempt = value;
                            else
                                delete message.attempt;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListedMessage.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListedMessage";
            };

            return ListedMessage;
        })();

        v1.ListMessagesResponse = (function() {

            const ListMessagesResponse = function (properties) {
                this.messages = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListMessagesResponse.prototype.messages = $util.emptyArray;
            ListMessagesResponse.prototype.nextPageToken = $util.newBuffer([]);

            ListMessagesResponse.create = function(properties) {
                return new ListMessagesResponse(properties);
            };

            ListMessagesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.messages != null && message.messages.length)
                    for (let i = 0; i < message.messages.length; ++i)
                        $root.fermata.v1.ListedMessage.encode(message.messages[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.nextPageToken != null && $Object.hasOwnProperty.call(message, "nextPageToken") && message.nextPageToken.length)
                    writer.uint32(18).bytes(message.nextPageToken);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListMessagesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListMessagesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.messages && message.messages.length))
                                message.messages = [];
                            message.messages.push($root.fermata.v1.ListedMessage.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.nextPageToken = value;
                            else
                                delete message.nextPageToken;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListMessagesResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListMessagesResponse";
            };

            return ListMessagesResponse;
        })();

        v1.GetDueForecastRequest = (function() {

            const GetDueForecastRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetDueForecastRequest.prototype.topic = "";
            GetDueForecastRequest.prototype.group = "";
            GetDueForecastRequest.prototype.fromMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            GetDueForecastRequest.prototype.toMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            GetDueForecastRequest.prototype.bucketMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            GetDueForecastRequest.create = function(properties) {
                return new GetDueForecastRequest(properties);
            };

            GetDueForecastRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.fromMs != null && $Object.hasOwnProperty.call(message, "fromMs") && (typeof message.fromMs === "object" ? message.fromMs.low || message.fromMs.high : message.fromMs !== 0))
                    writer.uint32(24).int64(message.fromMs);
                if (message.toMs != null && $Object.hasOwnProperty.call(message, "toMs") && (typeof message.toMs === "object" ? message.toMs.low || message.toMs.high : message.toMs !== 0))
                    writer.uint32(32).int64(message.toMs);
                if (message.bucketMs != null && $Object.hasOwnProperty.call(message, "bucketMs") && (typeof message.bucketMs === "object" ? message.bucketMs.low || message.bucketMs.high : message.bucketMs !== 0))
                    writer.uint32(40).int64(message.bucketMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetDueForecastRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetDueForecastRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.fromMs = value;
                            else
                                delete message.fromMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.toMs = value;
                            else
                                delete message.toMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.bucketMs = value;
                            else
                                delete message.bucketMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetDueForecastRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetDueForecastRequest";
            };

            return GetDueForecastRequest;
        })();

        v1.ForecastBucket = (function() {

            const ForecastBucket = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ForecastBucket.prototype.startMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ForecastBucket.prototype.endMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ForecastBucket.prototype.count = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            ForecastBucket.prototype.scheduled = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            ForecastBucket.create = function(properties) {
                return new ForecastBucket(properties);
            };

            ForecastBucket.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.startMs != null && $Object.hasOwnProperty.call(message, "startMs") && (typeof message.startMs === "object" ? message.startMs.low || message.startMs.high : message.startMs !== 0))
                    writer.uint32(8).int64(message.startMs);
                if (message.endMs != null && $Object.hasOwnProperty.call(message, "endMs") && (typeof message.endMs === "object" ? message.endMs.low || message.endMs.high : message.endMs !== 0))
                    writer.uint32(16).int64(message.endMs);
                if (message.count != null && $Object.hasOwnProperty.call(message, "count") && (typeof message.count === "object" ? message.count.low || message.count.high : message.count !== 0))
                    writer.uint32(24).uint64(message.count);
                if (message.scheduled != null && $Object.hasOwnProperty.call(message, "scheduled") && (typeof message.scheduled === "object" ? message.scheduled.low || message.scheduled.high : message.scheduled !== 0))
                    writer.uint32(32).uint64(message.scheduled);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ForecastBucket.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ForecastBucket();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.startMs = value;
                            else
                                delete message.startMs;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.endMs = value;
                            else
                                delete message.endMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.count = value;
                            else
                                delete message.count;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.scheduled = value;
                            else
                                delete message.scheduled;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ForecastBucket.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ForecastBucket";
            };

            return ForecastBucket;
        })();

        v1.GetDueForecastResponse = (function() {

            const GetDueForecastResponse = function (properties) {
                this.buckets = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetDueForecastResponse.prototype.buckets = $util.emptyArray;
            GetDueForecastResponse.prototype.pending = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GetDueForecastResponse.prototype.inFlight = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GetDueForecastResponse.prototype.complete = false;
            GetDueForecastResponse.prototype.schedulesTruncated = false;

            GetDueForecastResponse.create = function(properties) {
                return new GetDueForecastResponse(properties);
            };

            GetDueForecastResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.buckets != null && message.buckets.length)
                    for (let i = 0; i < message.buckets.length; ++i)
                        $root.fermata.v1.ForecastBucket.encode(message.buckets[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.pending != null && $Object.hasOwnProperty.call(message, "pending") && (typeof message.pending === "object" ? message.pending.low || message.pending.high : message.pending !== 0))
                    writer.uint32(16).uint64(message.pending);
                if (message.inFlight != null && $Object.hasOwnProperty.call(message, "inFlight") && (typeof message.inFlight === "object" ? message.inFlight.low || message.inFlight.high : message.inFlight !== 0))
                    writer.uint32(24).uint64(message.inFlight);
                if (message.complete != null && $Object.hasOwnProperty.call(message, "complete") && message.complete !== false)
                    writer.uint32(32).bool(message.complete);
                if (message.schedulesTruncated != null && $Object.hasOwnProperty.call(message, "schedulesTruncated") && message.schedulesTruncated !== false)
                    writer.uint32(40).bool(message.schedulesTruncated);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetDueForecastResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetDueForecastResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.buckets && message.buckets.length))
                                message.buckets = [];
                            message.buckets.push($root.fermata.v1.ForecastBucket.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.pending = value;
                            else
                                delete message.pending;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.inFlight = value;
                            else
                                delete message.inFlight;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.complete = value;
                            else
                                delete message.complete;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.schedulesTruncated = value;
                            else
                                delete message.schedulesTruncated;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetDueForecastResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetDueForecastResponse";
            };

            return GetDueForecastResponse;
        })();

        v1.RedriveRequest = (function() {

            const RedriveRequest = function (properties) {
                this.ids = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RedriveRequest.prototype.topic = "";
            RedriveRequest.prototype.ids = $util.emptyArray;
            RedriveRequest.prototype.all = false;
            RedriveRequest.prototype.limit = 0;
            RedriveRequest.prototype.pageToken = $util.newBuffer([]);

            RedriveRequest.create = function(properties) {
                return new RedriveRequest(properties);
            };

            RedriveRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.ids != null && message.ids.length)
                    writer.uint32(18).uint64s(message.ids);
                if (message.all != null && $Object.hasOwnProperty.call(message, "all") && message.all !== false)
                    writer.uint32(24).bool(message.all);
                if (message.limit != null && $Object.hasOwnProperty.call(message, "limit") && message.limit !== 0)
                    writer.uint32(32).uint32(message.limit);
                if (message.pageToken != null && $Object.hasOwnProperty.call(message, "pageToken") && message.pageToken.length)
                    writer.uint32(42).bytes(message.pageToken);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RedriveRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RedriveRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType === 2) {
                                if (!(message.ids && message.ids.length))
                                    message.ids = [];
                                reader.uint64s(message.ids);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.ids && message.ids.length))
                                message.ids = [];
                            message.ids.push(reader.uint64());
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.all = value;
                            else
                                delete message.all;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.limit = value;
                            else
                                delete message.limit;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.pageToken = value;
                            else
                                delete message.pageToken;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RedriveRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RedriveRequest";
            };

            return RedriveRequest;
        })();

        v1.RedriveStatus = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "REDRIVE_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "REDRIVE_STATUS_REDRIVEN"] = 1;
            values[valuesById[2] = "REDRIVE_STATUS_NOT_FOUND"] = 2;
            values[valuesById[3] = "REDRIVE_STATUS_NOT_A_DEAD_LETTER"] = 3;
            values[valuesById[4] = "REDRIVE_STATUS_IN_FLIGHT"] = 4;
            values[valuesById[5] = "REDRIVE_STATUS_GROUP_GONE"] = 5;
            return values;
        })();

        v1.RedriveResult = (function() {

            const RedriveResult = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RedriveResult.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RedriveResult.prototype.status = 0;
            RedriveResult.prototype.newId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            RedriveResult.create = function(properties) {
                return new RedriveResult(properties);
            };

            RedriveResult.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(8).uint64(message.id);
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(16).int32(message.status);
                if (message.newId != null && $Object.hasOwnProperty.call(message, "newId") && (typeof message.newId === "object" ? message.newId.low || message.newId.high : message.newId !== 0))
                    writer.uint32(24).uint64(message.newId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RedriveResult.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RedriveResult();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.newId = value;
                            else
                                delete message.newId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RedriveResult.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RedriveResult";
            };

            return RedriveResult;
        })();

        v1.RedriveResponse = (function() {

            const RedriveResponse = function (properties) {
                this.results = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RedriveResponse.prototype.results = $util.emptyArray;
            RedriveResponse.prototype.nextPageToken = $util.newBuffer([]);

            RedriveResponse.create = function(properties) {
                return new RedriveResponse(properties);
            };

            RedriveResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.results != null && message.results.length)
                    for (let i = 0; i < message.results.length; ++i)
                        $root.fermata.v1.RedriveResult.encode(message.results[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.nextPageToken != null && $Object.hasOwnProperty.call(message, "nextPageToken") && message.nextPageToken.length)
                    writer.uint32(18).bytes(message.nextPageToken);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RedriveResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RedriveResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.results && message.results.length))
                                message.results = [];
                            message.results.push($root.fermata.v1.RedriveResult.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.nextPageToken = value;
                            else
                                delete message.nextPageToken;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RedriveResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RedriveResponse";
            };

            return RedriveResponse;
        })();

        v1.Durability = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "DURABILITY_UNSPECIFIED"] = 0;
            values[valuesById[1] = "DURABILITY_QUORUM"] = 1;
            values[valuesById[2] = "DURABILITY_LEADER"] = 2;
            return values;
        })();

        v1.ErrorStatus = (function() {

            const ErrorStatus = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ErrorStatus.prototype.code = 0;
            ErrorStatus.prototype.message = "";
            ErrorStatus.prototype.field = "";
            ErrorStatus.prototype.leaderAddress = "";

            ErrorStatus.create = function(properties) {
                return new ErrorStatus(properties);
            };

            ErrorStatus.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.code != null && $Object.hasOwnProperty.call(message, "code") && message.code !== 0)
                    writer.uint32(8).int32(message.code);
                if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message !== "")
                    writer.uint32(18).string(message.message);
                if (message.field != null && $Object.hasOwnProperty.call(message, "field") && message.field !== "")
                    writer.uint32(26).string(message.field);
                if (message.leaderAddress != null && $Object.hasOwnProperty.call(message, "leaderAddress") && message.leaderAddress !== "")
                    writer.uint32(34).string(message.leaderAddress);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ErrorStatus.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ErrorStatus();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.code = value;
                            else
                                delete message.code;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.message = value;
                            else
                                delete message.message;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.field = value;
                            else
                                delete message.field;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.leaderAddress = value;
                            else
                                delete message.leaderAddress;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ErrorStatus.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ErrorStatus";
            };

            return ErrorStatus;
        })();

        v1.Cluster = (function() {

            const Cluster = function(rpcImpl, requestDelimited, responseDelimited) {
                $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
            };

            $Object.defineProperty(Cluster.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: Cluster, writable: true, enumerable: false, configurable: true });

            Cluster.create = function(rpcImpl, requestDelimited, responseDelimited) {
                return new this(rpcImpl, requestDelimited, responseDelimited);
            };



            $Object.defineProperties(Cluster.prototype.getClusterInfo = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Cluster.prototype.getClusterInfo, $root.fermata.v1.GetClusterInfoRequest, $root.fermata.v1.GetClusterInfoResponse, request, callback);
            }, {
                name: { value: "GetClusterInfo" },
                path: { value: "/fermata.v1.Cluster/GetClusterInfo" },
                requestType: { value: "GetClusterInfoRequest" },
                responseType: { value: "GetClusterInfoResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Cluster.prototype.addMember = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Cluster.prototype.addMember, $root.fermata.v1.AddMemberRequest, $root.fermata.v1.AddMemberResponse, request, callback);
            }, {
                name: { value: "AddMember" },
                path: { value: "/fermata.v1.Cluster/AddMember" },
                requestType: { value: "AddMemberRequest" },
                responseType: { value: "AddMemberResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Cluster.prototype.removeMember = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Cluster.prototype.removeMember, $root.fermata.v1.RemoveMemberRequest, $root.fermata.v1.RemoveMemberResponse, request, callback);
            }, {
                name: { value: "RemoveMember" },
                path: { value: "/fermata.v1.Cluster/RemoveMember" },
                requestType: { value: "RemoveMemberRequest" },
                responseType: { value: "RemoveMemberResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Cluster.prototype.transferLeadership = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Cluster.prototype.transferLeadership, $root.fermata.v1.TransferLeadershipRequest, $root.fermata.v1.TransferLeadershipResponse, request, callback);
            }, {
                name: { value: "TransferLeadership" },
                path: { value: "/fermata.v1.Cluster/TransferLeadership" },
                requestType: { value: "TransferLeadershipRequest" },
                responseType: { value: "TransferLeadershipResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });

            return Cluster;
        })();

        v1.MemberRole = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "MEMBER_ROLE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "MEMBER_ROLE_LEADER"] = 1;
            values[valuesById[2] = "MEMBER_ROLE_FOLLOWER"] = 2;
            values[valuesById[3] = "MEMBER_ROLE_CANDIDATE"] = 3;
            values[valuesById[4] = "MEMBER_ROLE_PRE_CANDIDATE"] = 4;
            values[valuesById[5] = "MEMBER_ROLE_LEARNER"] = 5;
            values[valuesById[6] = "MEMBER_ROLE_UNREACHABLE"] = 6;
            return values;
        })();

        v1.Member = (function() {

            const Member = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Member.prototype.id = "";
            Member.prototype.address = "";
            Member.prototype.peerAddress = "";
            Member.prototype.role = 0;
            Member.prototype.voter = false;
            Member.prototype.matchIndex = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Member.prototype.lag = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            Member.create = function(properties) {
                return new Member(properties);
            };

            Member.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                    writer.uint32(10).string(message.id);
                if (message.address != null && $Object.hasOwnProperty.call(message, "address") && message.address !== "")
                    writer.uint32(18).string(message.address);
                if (message.peerAddress != null && $Object.hasOwnProperty.call(message, "peerAddress") && message.peerAddress !== "")
                    writer.uint32(26).string(message.peerAddress);
                if (message.role != null && $Object.hasOwnProperty.call(message, "role") && message.role !== 0)
                    writer.uint32(32).int32(message.role);
                if (message.voter != null && $Object.hasOwnProperty.call(message, "voter") && message.voter !== false)
                    writer.uint32(40).bool(message.voter);
                if (message.matchIndex != null && $Object.hasOwnProperty.call(message, "matchIndex") && (typeof message.matchIndex === "object" ? message.matchIndex.low || message.matchIndex.high : message.matchIndex !== 0))
                    writer.uint32(48).uint64(message.matchIndex);
                if (message.lag != null && $Object.hasOwnProperty.call(message, "lag") && (typeof message.lag === "object" ? message.lag.low || message.lag.high : message.lag !== 0))
                    writer.uint32(56).uint64(message.lag);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Member.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Member();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.address = value;
                            else
                                delete message.address;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.peerAddress = value;
                            else
                                delete message.peerAddress;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.role = value;
                            else
                                delete message.role;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.voter = value;
                            else
                                delete message.voter;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.matchIndex = value;
                            else
                                delete message.matchIndex;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.lag = value;
                            else
                                delete message.lag;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Member.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Member";
            };

            return Member;
        })();

        v1.GetClusterInfoRequest = (function() {

            const GetClusterInfoRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetClusterInfoRequest.prototype.waitForLeaderMs = 0;
            GetClusterInfoRequest.prototype.unreachableLeaderAddress = "";

            GetClusterInfoRequest.create = function(properties) {
                return new GetClusterInfoRequest(properties);
            };

            GetClusterInfoRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.waitForLeaderMs != null && $Object.hasOwnProperty.call(message, "waitForLeaderMs") && message.waitForLeaderMs !== 0)
                    writer.uint32(8).uint32(message.waitForLeaderMs);
                if (message.unreachableLeaderAddress != null && $Object.hasOwnProperty.call(message, "unreachableLeaderAddress") && message.unreachableLeaderAddress !== "")
                    writer.uint32(18).string(message.unreachableLeaderAddress);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetClusterInfoRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetClusterInfoRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.waitForLeaderMs = value;
                            else
                                delete message.waitForLeaderMs;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.unreachableLeaderAddress = value;
                            else
                                delete message.unreachableLeaderAddress;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetClusterInfoRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetClusterInfoRequest";
            };

            return GetClusterInfoRequest;
        })();

        v1.GetClusterInfoResponse = (function() {

            const GetClusterInfoResponse = function (properties) {
                this.members = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetClusterInfoResponse.prototype.clusterId = "";
            GetClusterInfoResponse.prototype.nodeId = "";
            GetClusterInfoResponse.prototype.leaderId = "";
            GetClusterInfoResponse.prototype.leaderAddress = "";
            GetClusterInfoResponse.prototype.term = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GetClusterInfoResponse.prototype.commitIndex = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GetClusterInfoResponse.prototype.appliedIndex = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            GetClusterInfoResponse.prototype.members = $util.emptyArray;

            GetClusterInfoResponse.create = function(properties) {
                return new GetClusterInfoResponse(properties);
            };

            GetClusterInfoResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.clusterId != null && $Object.hasOwnProperty.call(message, "clusterId") && message.clusterId !== "")
                    writer.uint32(10).string(message.clusterId);
                if (message.nodeId != null && $Object.hasOwnProperty.call(message, "nodeId") && message.nodeId !== "")
                    writer.uint32(18).string(message.nodeId);
                if (message.leaderId != null && $Object.hasOwnProperty.call(message, "leaderId") && message.leaderId !== "")
                    writer.uint32(26).string(message.leaderId);
                if (message.leaderAddress != null && $Object.hasOwnProperty.call(message, "leaderAddress") && message.leaderAddress !== "")
                    writer.uint32(34).string(message.leaderAddress);
                if (message.term != null && $Object.hasOwnProperty.call(message, "term") && (typeof message.term === "object" ? message.term.low || message.term.high : message.term !== 0))
                    writer.uint32(40).uint64(message.term);
                if (message.commitIndex != null && $Object.hasOwnProperty.call(message, "commitIndex") && (typeof message.commitIndex === "object" ? message.commitIndex.low || message.commitIndex.high : message.commitIndex !== 0))
                    writer.uint32(48).uint64(message.commitIndex);
                if (message.appliedIndex != null && $Object.hasOwnProperty.call(message, "appliedIndex") && (typeof message.appliedIndex === "object" ? message.appliedIndex.low || message.appliedIndex.high : message.appliedIndex !== 0))
                    writer.uint32(56).uint64(message.appliedIndex);
                if (message.members != null && message.members.length)
                    for (let i = 0; i < message.members.length; ++i)
                        $root.fermata.v1.Member.encode(message.members[i], writer.uint32(66).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetClusterInfoResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetClusterInfoResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.clusterId = value;
                            else
                                delete message.clusterId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.nodeId = value;
                            else
                                delete message.nodeId;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.leaderId = value;
                            else
                                delete message.leaderId;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.leaderAddress = value;
                            else
                                delete message.leaderAddress;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.term = value;
                            else
                                delete message.term;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.commitIndex = value;
                            else
                                delete message.commitIndex;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.appliedIndex = value;
                            else
                                delete message.appliedIndex;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 2)
                                break;
                            if (!(message.members && message.members.length))
                                message.members = [];
                            message.members.push($root.fermata.v1.Member.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetClusterInfoResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetClusterInfoResponse";
            };

            return GetClusterInfoResponse;
        })();

        v1.AddMemberRequest = (function() {

            const AddMemberRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            AddMemberRequest.prototype.id = "";
            AddMemberRequest.prototype.peerAddress = "";
            AddMemberRequest.prototype.address = "";
            AddMemberRequest.prototype.learnerOnly = false;

            AddMemberRequest.create = function(properties) {
                return new AddMemberRequest(properties);
            };

            AddMemberRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                    writer.uint32(10).string(message.id);
                if (message.peerAddress != null && $Object.hasOwnProperty.call(message, "peerAddress") && message.peerAddress !== "")
                    writer.uint32(18).string(message.peerAddress);
                if (message.address != null && $Object.hasOwnProperty.call(message, "address") && message.address !== "")
                    writer.uint32(26).string(message.address);
                if (message.learnerOnly != null && $Object.hasOwnProperty.call(message, "learnerOnly") && message.learnerOnly !== false)
                    writer.uint32(32).bool(message.learnerOnly);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            AddMemberRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.AddMemberRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.peerAddress = value;
                            else
                                delete message.peerAddress;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.address = value;
                            else
                                delete message.address;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.learnerOnly = value;
                            else
                                delete message.learnerOnly;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            AddMemberRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.AddMemberRequest";
            };

            return AddMemberRequest;
        })();

        v1.AddMemberResponse = (function() {

            const AddMemberResponse = function (properties) {
                this.members = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            AddMemberResponse.prototype.members = $util.emptyArray;

            AddMemberResponse.create = function(properties) {
                return new AddMemberResponse(properties);
            };

            AddMemberResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.members != null && message.members.length)
                    for (let i = 0; i < message.members.length; ++i)
                        $root.fermata.v1.Member.encode(message.members[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            AddMemberResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.AddMemberResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.members && message.members.length))
                                message.members = [];
                            message.members.push($root.fermata.v1.Member.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            AddMemberResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.AddMemberResponse";
            };

            return AddMemberResponse;
        })();

        v1.RemoveMemberRequest = (function() {

            const RemoveMemberRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RemoveMemberRequest.prototype.id = "";

            RemoveMemberRequest.create = function(properties) {
                return new RemoveMemberRequest(properties);
            };

            RemoveMemberRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && message.id !== "")
                    writer.uint32(10).string(message.id);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RemoveMemberRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RemoveMemberRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RemoveMemberRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RemoveMemberRequest";
            };

            return RemoveMemberRequest;
        })();

        v1.RemoveMemberResponse = (function() {

            const RemoveMemberResponse = function (properties) {
                this.members = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RemoveMemberResponse.prototype.members = $util.emptyArray;

            RemoveMemberResponse.create = function(properties) {
                return new RemoveMemberResponse(properties);
            };

            RemoveMemberResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.members != null && message.members.length)
                    for (let i = 0; i < message.members.length; ++i)
                        $root.fermata.v1.Member.encode(message.members[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RemoveMemberResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RemoveMemberResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.members && message.members.length))
                                message.members = [];
                            message.members.push($root.fermata.v1.Member.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RemoveMemberResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RemoveMemberResponse";
            };

            return RemoveMemberResponse;
        })();

        v1.TransferLeadershipRequest = (function() {

            const TransferLeadershipRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TransferLeadershipRequest.prototype.toId = "";

            TransferLeadershipRequest.create = function(properties) {
                return new TransferLeadershipRequest(properties);
            };

            TransferLeadershipRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.toId != null && $Object.hasOwnProperty.call(message, "toId") && message.toId !== "")
                    writer.uint32(10).string(message.toId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TransferLeadershipRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TransferLeadershipRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.toId = value;
                            else
                                delete message.toId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TransferLeadershipRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TransferLeadershipRequest";
            };

            return TransferLeadershipRequest;
        })();

        v1.TransferLeadershipResponse = (function() {

            const TransferLeadershipResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TransferLeadershipResponse.prototype.leaderId = "";

            TransferLeadershipResponse.create = function(properties) {
                return new TransferLeadershipResponse(properties);
            };

            TransferLeadershipResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.leaderId != null && $Object.hasOwnProperty.call(message, "leaderId") && message.leaderId !== "")
                    writer.uint32(10).string(message.leaderId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TransferLeadershipResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TransferLeadershipResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.leaderId = value;
                            else
                                delete message.leaderId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TransferLeadershipResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TransferLeadershipResponse";
            };

            return TransferLeadershipResponse;
        })();

        v1.Command = (function() {

            const Command = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Command.prototype.nowMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Command.prototype.inlineBodies = false;
            Command.prototype.publish = null;
            Command.prototype.lease = null;
            Command.prototype.ack = null;
            Command.prototype.nack = null;
            Command.prototype.extend = null;
            Command.prototype.cancel = null;
            Command.prototype.reschedule = null;
            Command.prototype.expire = null;
            Command.prototype.purgeKeys = null;
            Command.prototype.createTopic = null;
            Command.prototype.updateTopic = null;
            Command.prototype.deleteTopic = null;
            Command.prototype.createGroup = null;
            Command.prototype.deleteGroup = null;
            Command.prototype.schedule = null;
            Command.prototype.applyLimits = null;
            Command.prototype.purge = null;
            Command.prototype.redrive = null;
            Command.prototype.forgetPublishes = null;
            Command.prototype.updateGroup = null;

            let $oneOfFields;

            $Object.defineProperty(Command.prototype, "kind", {
                get: $util.oneOfGetter($oneOfFields = ["publish", "lease", "ack", "nack", "extend", "cancel", "reschedule", "expire", "purgeKeys", "createTopic", "updateTopic", "deleteTopic", "createGroup", "deleteGroup", "schedule", "applyLimits", "purge", "redrive", "forgetPublishes", "updateGroup"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            Command.create = function(properties) {
                return new Command(properties);
            };

            Command.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.nowMs != null && $Object.hasOwnProperty.call(message, "nowMs") && (typeof message.nowMs === "object" ? message.nowMs.low || message.nowMs.high : message.nowMs !== 0))
                    writer.uint32(8).int64(message.nowMs);
                if (message.inlineBodies != null && $Object.hasOwnProperty.call(message, "inlineBodies") && message.inlineBodies !== false)
                    writer.uint32(16).bool(message.inlineBodies);
                if (message.publish != null && $Object.hasOwnProperty.call(message, "publish"))
                    $root.fermata.v1.PublishCommand.encode(message.publish, writer.uint32(82).fork(), _depth + 1).ldelim();
                if (message.lease != null && $Object.hasOwnProperty.call(message, "lease"))
                    $root.fermata.v1.LeaseCommand.encode(message.lease, writer.uint32(90).fork(), _depth + 1).ldelim();
                if (message.ack != null && $Object.hasOwnProperty.call(message, "ack"))
                    $root.fermata.v1.AckCommand.encode(message.ack, writer.uint32(98).fork(), _depth + 1).ldelim();
                if (message.nack != null && $Object.hasOwnProperty.call(message, "nack"))
                    $root.fermata.v1.NackCommand.encode(message.nack, writer.uint32(106).fork(), _depth + 1).ldelim();
                if (message.extend != null && $Object.hasOwnProperty.call(message, "extend"))
                    $root.fermata.v1.ExtendCommand.encode(message.extend, writer.uint32(114).fork(), _depth + 1).ldelim();
                if (message.cancel != null && $Object.hasOwnProperty.call(message, "cancel"))
                    $root.fermata.v1.CancelCommand.encode(message.cancel, writer.uint32(122).fork(), _depth + 1).ldelim();
                if (message.reschedule != null && $Object.hasOwnProperty.call(message, "reschedule"))
                    $root.fermata.v1.RescheduleCommand.encode(message.reschedule, writer.uint32(130).fork(), _depth + 1).ldelim();
                if (message.expire != null && $Object.hasOwnProperty.call(message, "expire"))
                    $root.fermata.v1.ExpireCommand.encode(message.expire, writer.uint32(138).fork(), _depth + 1).ldelim();
                if (message.purgeKeys != null && $Object.hasOwnProperty.call(message, "purgeKeys"))
                    $root.fermata.v1.PurgeKeysCommand.encode(message.purgeKeys, writer.uint32(146).fork(), _depth + 1).ldelim();
                if (message.createTopic != null && $Object.hasOwnProperty.call(message, "createTopic"))
                    $root.fermata.v1.CreateTopicCommand.encode(message.createTopic, writer.uint32(154).fork(), _depth + 1).ldelim();
                if (message.updateTopic != null && $Object.hasOwnProperty.call(message, "updateTopic"))
                    $root.fermata.v1.UpdateTopicCommand.encode(message.updateTopic, writer.uint32(162).fork(), _depth + 1).ldelim();
                if (message.deleteTopic != null && $Object.hasOwnProperty.call(message, "deleteTopic"))
                    $root.fermata.v1.DeleteTopicCommand.encode(message.deleteTopic, writer.uint32(170).fork(), _depth + 1).ldelim();
                if (message.createGroup != null && $Object.hasOwnProperty.call(message, "createGroup"))
                    $root.fermata.v1.CreateGroupCommand.encode(message.createGroup, writer.uint32(178).fork(), _depth + 1).ldelim();
                if (message.deleteGroup != null && $Object.hasOwnProperty.call(message, "deleteGroup"))
                    $root.fermata.v1.DeleteGroupCommand.encode(message.deleteGroup, writer.uint32(186).fork(), _depth + 1).ldelim();
                if (message.applyLimits != null && $Object.hasOwnProperty.call(message, "applyLimits"))
                    $root.fermata.v1.ApplyLimitsCommand.encode(message.applyLimits, writer.uint32(194).fork(), _depth + 1).ldelim();
                if (message.purge != null && $Object.hasOwnProperty.call(message, "purge"))
                    $root.fermata.v1.PurgeCommand.encode(message.purge, writer.uint32(202).fork(), _depth + 1).ldelim();
                if (message.redrive != null && $Object.hasOwnProperty.call(message, "redrive"))
                    $root.fermata.v1.RedriveCommand.encode(message.redrive, writer.uint32(210).fork(), _depth + 1).ldelim();
                if (message.forgetPublishes != null && $Object.hasOwnProperty.call(message, "forgetPublishes"))
                    $root.fermata.v1.ForgetPublishesCommand.encode(message.forgetPublishes, writer.uint32(218).fork(), _depth + 1).ldelim();
                if (message.updateGroup != null && $Object.hasOwnProperty.call(message, "updateGroup"))
                    $root.fermata.v1.UpdateGroupCommand.encode(message.updateGroup, writer.uint32(226).fork(), _depth + 1).ldelim();
                if (message.schedule != null && $Object.hasOwnProperty.call(message, "schedule"))
                    $root.fermata.v1.ScheduleCommand.encode(message.schedule, writer.uint32(322).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Command.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Command();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.nowMs = value;
                            else
                                delete message.nowMs;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.inlineBodies = value;
                            else
                                delete message.inlineBodies;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 2)
                                break;
                            message.publish = $root.fermata.v1.PublishCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.publish);
                            message.kind = "publish";
                            continue;
                        }
                    case 11: {
                            if (wireType !== 2)
                                break;
                            message.lease = $root.fermata.v1.LeaseCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.lease);
                            message.kind = "lease";
                            continue;
                        }
                    case 12: {
                            if (wireType !== 2)
                                break;
                            message.ack = $root.fermata.v1.AckCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.ack);
                            message.kind = "ack";
                            continue;
                        }
                    case 13: {
                            if (wireType !== 2)
                                break;
                            message.nack = $root.fermata.v1.NackCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.nack);
                            message.kind = "nack";
                            continue;
                        }
                    case 14: {
                            if (wireType !== 2)
                                break;
                            message.extend = $root.fermata.v1.ExtendCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.extend);
                            message.kind = "extend";
                            continue;
                        }
                    case 15: {
                            if (wireType !== 2)
                                break;
                            message.cancel = $root.fermata.v1.CancelCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.cancel);
                            message.kind = "cancel";
                            continue;
                        }
                    case 16: {
                            if (wireType !== 2)
                                break;
                            message.reschedule = $root.fermata.v1.RescheduleCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.reschedule);
                            message.kind = "reschedule";
                            continue;
                        }
                    case 17: {
                            if (wireType !== 2)
                                break;
                            message.expire = $root.fermata.v1.ExpireCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.expire);
                            message.kind = "expire";
                            continue;
                        }
                    case 18: {
                            if (wireType !== 2)
                                break;
                            message.purgeKeys = $root.fermata.v1.PurgeKeysCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.purgeKeys);
                            message.kind = "purgeKeys";
                            continue;
                        }
                    case 19: {
                            if (wireType !== 2)
                                break;
                            message.createTopic = $root.fermata.v1.CreateTopicCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.createTopic);
                            message.kind = "createTopic";
                            continue;
                        }
                    case 20: {
                            if (wireType !== 2)
                                break;
                            message.updateTopic = $root.fermata.v1.UpdateTopicCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.updateTopic);
                            message.kind = "updateTopic";
                            continue;
                        }
                    case 21: {
                            if (wireType !== 2)
                                break;
                            message.deleteTopic = $root.fermata.v1.DeleteTopicCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.deleteTopic);
                            message.kind = "deleteTopic";
                            continue;
                        }
                    case 22: {
                            if (wireType !== 2)
                                break;
                            message.createGroup = $root.fermata.v1.CreateGroupCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.createGroup);
                            message.kind = "createGroup";
                            continue;
                        }
                    case 23: {
                            if (wireType !== 2)
                                break;
                            message.deleteGroup = $root.fermata.v1.DeleteGroupCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.deleteGroup);
                            message.kind = "deleteGroup";
                            continue;
                        }
                    case 40: {
                            if (wireType !== 2)
                                break;
                            message.schedule = $root.fermata.v1.ScheduleCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.schedule);
                            message.kind = "schedule";
                            continue;
                        }
                    case 24: {
                            if (wireType !== 2)
                                break;
                            message.applyLimits = $root.fermata.v1.ApplyLimitsCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.applyLimits);
                            message.kind = "applyLimits";
                            continue;
                        }
                    case 25: {
                            if (wireType !== 2)
                                break;
                            message.purge = $root.fermata.v1.PurgeCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.purge);
                            message.kind = "purge";
                            continue;
                        }
                    case 26: {
                            if (wireType !== 2)
                                break;
                            message.redrive = $root.fermata.v1.RedriveCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.redrive);
                            message.kind = "redrive";
                            continue;
                        }
                    case 27: {
                            if (wireType !== 2)
                                break;
                            message.forgetPublishes = $root.fermata.v1.ForgetPublishesCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.forgetPublishes);
                            message.kind = "forgetPublishes";
                            continue;
                        }
                    case 28: {
                            if (wireType !== 2)
                                break;
                            message.updateGroup = $root.fermata.v1.UpdateGroupCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.updateGroup);
                            message.kind = "updateGroup";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Command.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Command";
            };

            return Command;
        })();

        v1.PublishCommand = (function() {

            const PublishCommand = function (properties) {
                this.messages = [];
                this.requests = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishCommand.prototype.messages = $util.emptyArray;
            PublishCommand.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PublishCommand.prototype.requests = $util.emptyArray;

            PublishCommand.create = function(properties) {
                return new PublishCommand(properties);
            };

            PublishCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.messages != null && message.messages.length)
                    for (let i = 0; i < message.messages.length; ++i)
                        $root.fermata.v1.PublishMessage.encode(message.messages[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(16).uint64(message.firstId);
                if (message.requests != null && message.requests.length)
                    for (let i = 0; i < message.requests.length; ++i)
                        $root.fermata.v1.PublishRequestSpan.encode(message.requests[i], writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.messages && message.messages.length))
                                message.messages = [];
                            message.messages.push($root.fermata.v1.PublishMessage.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.requests && message.requests.length))
                                message.requests = [];
                            message.requests.push($root.fermata.v1.PublishRequestSpan.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishCommand";
            };

            return PublishCommand;
        })();

        v1.PublishRequestSpan = (function() {

            const PublishRequestSpan = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishRequestSpan.prototype.idempotencyKey = "";
            PublishRequestSpan.prototype.count = 0;

            PublishRequestSpan.create = function(properties) {
                return new PublishRequestSpan(properties);
            };

            PublishRequestSpan.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.idempotencyKey != null && $Object.hasOwnProperty.call(message, "idempotencyKey") && message.idempotencyKey !== "")
                    writer.uint32(10).string(message.idempotencyKey);
                if (message.count != null && $Object.hasOwnProperty.call(message, "count") && message.count !== 0)
                    writer.uint32(16).uint32(message.count);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishRequestSpan.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishRequestSpan();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.idempotencyKey = value;
                            else
                                delete message.idempotencyKey;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.count = value;
                            else
                                delete message.count;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishRequestSpan.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishRequestSpan";
            };

            return PublishRequestSpan;
        })();

        v1.LeaseCommand = (function() {

            const LeaseCommand = function (properties) {
                this.tags = [];
                this.runs = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            LeaseCommand.prototype.topic = "";
            LeaseCommand.prototype.group = "";
            LeaseCommand.prototype.tags = $util.emptyArray;
            LeaseCommand.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            LeaseCommand.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseCommand.prototype.idCount = 0;
            LeaseCommand.prototype.aheadMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            LeaseCommand.prototype.inPlace = false;
            LeaseCommand.prototype.deadLetterFallback = false;
            LeaseCommand.prototype.consumerId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseCommand.prototype.leaseId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseCommand.prototype.runs = $util.emptyArray;

            LeaseCommand.create = function(properties) {
                return new LeaseCommand(properties);
            };

            LeaseCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.tags != null && message.tags.length)
                    for (let i = 0; i < message.tags.length; ++i)
                        writer.uint32(26).bytes(message.tags[i]);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(32).int64(message.leaseMs);
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(40).uint64(message.firstId);
                if (message.idCount != null && $Object.hasOwnProperty.call(message, "idCount") && message.idCount !== 0)
                    writer.uint32(48).uint32(message.idCount);
                if (message.aheadMs != null && $Object.hasOwnProperty.call(message, "aheadMs") && (typeof message.aheadMs === "object" ? message.aheadMs.low || message.aheadMs.high : message.aheadMs !== 0))
                    writer.uint32(56).int64(message.aheadMs);
                if (message.inPlace != null && $Object.hasOwnProperty.call(message, "inPlace") && message.inPlace !== false)
                    writer.uint32(64).bool(message.inPlace);
                if (message.deadLetterFallback != null && $Object.hasOwnProperty.call(message, "deadLetterFallback") && message.deadLetterFallback !== false)
                    writer.uint32(72).bool(message.deadLetterFallback);
                if (message.consumerId != null && $Object.hasOwnProperty.call(message, "consumerId") && (typeof message.consumerId === "object" ? message.consumerId.low || message.consumerId.high : message.consumerId !== 0))
                    writer.uint32(80).uint64(message.consumerId);
                if (message.leaseId != null && $Object.hasOwnProperty.call(message, "leaseId") && (typeof message.leaseId === "object" ? message.leaseId.low || message.leaseId.high : message.leaseId !== 0))
                    writer.uint32(88).uint64(message.leaseId);
                if (message.runs != null && message.runs.length)
                    for (let i = 0; i < message.runs.length; ++i)
                        $root.fermata.v1.LeaseRun.encode(message.runs[i], writer.uint32(98).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            LeaseCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.LeaseCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.tags && message.tags.length))
                                message.tags = [];
                            message.tags.push(reader.bytes());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.idCount = value;
                            else
                                delete message.idCount;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.aheadMs = value;
                            else
                                delete message.aheadMs;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.inPlace = value;
                            else
                                delete message.inPlace;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.deadLetterFallback = value;
                            else
                                delete message.deadLetterFallback;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.consumerId = value;
                            else
                                delete message.consumerId;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseId = value;
                            else
                                delete message.leaseId;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 2)
                                break;
                            if (!(message.runs && message.runs.length))
                                message.runs = [];
                            message.runs.push($root.fermata.v1.LeaseRun.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            LeaseCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.LeaseCommand";
            };

            return LeaseCommand;
        })();

        v1.LeaseRun = (function() {

            const LeaseRun = function (properties) {
                this.tags = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            LeaseRun.prototype.topic = "";
            LeaseRun.prototype.group = "";
            LeaseRun.prototype.tags = $util.emptyArray;
            LeaseRun.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            LeaseRun.prototype.leaseId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseRun.prototype.consumerId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseRun.prototype.deadLetterFallback = false;

            LeaseRun.create = function(properties) {
                return new LeaseRun(properties);
            };

            LeaseRun.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.tags != null && message.tags.length)
                    for (let i = 0; i < message.tags.length; ++i)
                        writer.uint32(26).bytes(message.tags[i]);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(32).int64(message.leaseMs);
                if (message.leaseId != null && $Object.hasOwnProperty.call(message, "leaseId") && (typeof message.leaseId === "object" ? message.leaseId.low || message.leaseId.high : message.leaseId !== 0))
                    writer.uint32(40).uint64(message.leaseId);
                if (message.consumerId != null && $Object.hasOwnProperty.call(message, "consumerId") && (typeof message.consumerId === "object" ? message.consumerId.low || message.consumerId.high : message.consumerId !== 0))
                    writer.uint32(48).uint64(message.consumerId);
                if (message.deadLetterFallback != null && $Object.hasOwnProperty.call(message, "deadLetterFallback") && message.deadLetterFallback !== false)
                    writer.uint32(56).bool(message.deadLetterFallback);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            LeaseRun.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.LeaseRun();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.tags && message.tags.length))
                                message.tags = [];
                            message.tags.push(reader.bytes());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseId = value;
                            else
                                delete message.leaseId;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.consumerId = value;
                            else
                                delete message.consumerId;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.deadLetterFallback = value;
                            else
                                delete message.deadLetterFallback;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            LeaseRun.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.LeaseRun";
            };

            return LeaseRun;
        })();

        v1.AckCommand = (function() {

            const AckCommand = function (properties) {
                this.tags = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            AckCommand.prototype.tags = $util.emptyArray;

            AckCommand.create = function(properties) {
                return new AckCommand(properties);
            };

            AckCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tags != null && message.tags.length)
                    for (let i = 0; i < message.tags.length; ++i)
                        writer.uint32(10).bytes(message.tags[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            AckCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.AckCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.tags && message.tags.length))
                                message.tags = [];
                            message.tags.push(reader.bytes());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            AckCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.AckCommand";
            };

            return AckCommand;
        })();

        v1.NackCommand = (function() {

            const NackCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            NackCommand.prototype.tag = $util.newBuffer([]);
            NackCommand.prototype.delayMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            NackCommand.prototype.uncounted = false;
            NackCommand.prototype.error = "";

            NackCommand.create = function(properties) {
                return new NackCommand(properties);
            };

            NackCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.delayMs != null && $Object.hasOwnProperty.call(message, "delayMs") && (typeof message.delayMs === "object" ? message.delayMs.low || message.delayMs.high : message.delayMs !== 0))
                    writer.uint32(16).int64(message.delayMs);
                if (message.uncounted != null && $Object.hasOwnProperty.call(message, "uncounted") && message.uncounted !== false)
                    writer.uint32(24).bool(message.uncounted);
                if (message.error != null && $Object.hasOwnProperty.call(message, "error") && message.error !== "")
                    writer.uint32(34).string(message.error);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            NackCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.NackCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.delayMs = value;
                            else
                                delete message.delayMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.uncounted = value;
                            else
                                delete message.uncounted;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.error = value;
                            else
                                delete message.error;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            NackCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.NackCommand";
            };

            return NackCommand;
        })();

        v1.ExtendCommand = (function() {

            const ExtendCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ExtendCommand.prototype.tag = $util.newBuffer([]);
            ExtendCommand.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            ExtendCommand.create = function(properties) {
                return new ExtendCommand(properties);
            };

            ExtendCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(10).bytes(message.tag);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(16).int64(message.leaseMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ExtendCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ExtendCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ExtendCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ExtendCommand";
            };

            return ExtendCommand;
        })();

        v1.CancelCommand = (function() {

            const CancelCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CancelCommand.prototype.topic = "";
            CancelCommand.prototype.id = null;
            CancelCommand.prototype.key = null;

            let $oneOfFields;

            $Object.defineProperty(CancelCommand.prototype, "target", {
                get: $util.oneOfGetter($oneOfFields = ["id", "key"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            CancelCommand.create = function(properties) {
                return new CancelCommand(properties);
            };

            CancelCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                    writer.uint32(16).uint64(message.id);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    writer.uint32(26).string(message.key);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CancelCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CancelCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            message.id = reader.uint64();
                            message.target = "id";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.key = reader.stringVerify();
                            message.target = "key";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CancelCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CancelCommand";
            };

            return CancelCommand;
        })();

        v1.RescheduleCommand = (function() {

            const RescheduleCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RescheduleCommand.prototype.topic = "";
            RescheduleCommand.prototype.id = null;
            RescheduleCommand.prototype.key = null;
            RescheduleCommand.prototype.delayMs = null;
            RescheduleCommand.prototype.deliverAtMs = null;

            let $oneOfFields;

            $Object.defineProperty(RescheduleCommand.prototype, "target", {
                get: $util.oneOfGetter($oneOfFields = ["id", "key"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            $Object.defineProperty(RescheduleCommand.prototype, "schedule", {
                get: $util.oneOfGetter($oneOfFields = ["delayMs", "deliverAtMs"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            RescheduleCommand.create = function(properties) {
                return new RescheduleCommand(properties);
            };

            RescheduleCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id"))
                    writer.uint32(16).uint64(message.id);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key"))
                    writer.uint32(26).string(message.key);
                if (message.delayMs != null && $Object.hasOwnProperty.call(message, "delayMs"))
                    writer.uint32(32).int64(message.delayMs);
                if (message.deliverAtMs != null && $Object.hasOwnProperty.call(message, "deliverAtMs"))
                    writer.uint32(40).int64(message.deliverAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RescheduleCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RescheduleCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            message.id = reader.uint64();
                            message.target = "id";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.key = reader.stringVerify();
                            message.target = "key";
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            message.delayMs = reader.int64();
                            message.schedule = "delayMs";
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            message.deliverAtMs = reader.int64();
                            message.schedule = "deliverAtMs";
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RescheduleCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RescheduleCommand";
            };

            return RescheduleCommand;
        })();

        v1.ExpireCommand = (function() {

            const ExpireCommand = function (properties) {
                this.ids = [];
                this.deadLetterFallbackTopics = [];
                this.keys = [];
                this.atMs = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ExpireCommand.prototype.ids = $util.emptyArray;
            ExpireCommand.prototype.deadLetterFallbackTopics = $util.emptyArray;
            ExpireCommand.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            ExpireCommand.prototype.idCount = 0;
            ExpireCommand.prototype.keys = $util.emptyArray;
            ExpireCommand.prototype.atMs = $util.emptyArray;

            ExpireCommand.create = function(properties) {
                return new ExpireCommand(properties);
            };

            ExpireCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.ids != null && message.ids.length)
                    writer.uint32(10).uint64s(message.ids);
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(16).uint64(message.firstId);
                if (message.idCount != null && $Object.hasOwnProperty.call(message, "idCount") && message.idCount !== 0)
                    writer.uint32(24).uint32(message.idCount);
                if (message.deadLetterFallbackTopics != null && message.deadLetterFallbackTopics.length)
                    for (let i = 0; i < message.deadLetterFallbackTopics.length; ++i)
                        writer.uint32(34).string(message.deadLetterFallbackTopics[i]);
                if (message.keys != null && message.keys.length)
                    for (let i = 0; i < message.keys.length; ++i)
                        writer.uint32(42).bytes(message.keys[i]);
                if (message.atMs != null && message.atMs.length)
                    writer.uint32(50).int64s(message.atMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ExpireCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ExpireCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType === 2) {
                                if (!(message.ids && message.ids.length))
                                    message.ids = [];
                                reader.uint64s(message.ids);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.ids && message.ids.length))
                                message.ids = [];
                            message.ids.push(reader.uint64());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (!(message.deadLetterFallbackTopics && message.deadLetterFallbackTopics.length))
                                message.deadLetterFallbackTopics = [];
                            message.deadLetterFallbackTopics.push(reader.stringVerify());
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.idCount = value;
                            else
                                delete message.idCount;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if (!(message.keys && message.keys.length))
                                message.keys = [];
                            message.keys.push(reader.bytes());
                            continue;
                        }
                    case 6: {
                            if (wireType === 2) {
                                if (!(message.atMs && message.atMs.length))
                                    message.atMs = [];
                                reader.int64s(message.atMs);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.atMs && message.atMs.length))
                                message.atMs = [];
                            message.atMs.push(reader.int64());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ExpireCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ExpireCommand";
            };

            return ExpireCommand;
        })();

        v1.ForgetPublishesCommand = (function() {

            const ForgetPublishesCommand = function (properties) {
                this.firstIds = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ForgetPublishesCommand.prototype.firstIds = $util.emptyArray;

            ForgetPublishesCommand.create = function(properties) {
                return new ForgetPublishesCommand(properties);
            };

            ForgetPublishesCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.firstIds != null && message.firstIds.length)
                    writer.uint32(10).uint64s(message.firstIds);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ForgetPublishesCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ForgetPublishesCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType === 2) {
                                if (!(message.firstIds && message.firstIds.length))
                                    message.firstIds = [];
                                reader.uint64s(message.firstIds);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.firstIds && message.firstIds.length))
                                message.firstIds = [];
                            message.firstIds.push(reader.uint64());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ForgetPublishesCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ForgetPublishesCommand";
            };

            return ForgetPublishesCommand;
        })();

        v1.TopicKey = (function() {

            const TopicKey = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TopicKey.prototype.topic = "";
            TopicKey.prototype.key = "";

            TopicKey.create = function(properties) {
                return new TopicKey(properties);
            };

            TopicKey.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                    writer.uint32(18).string(message.key);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TopicKey.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TopicKey();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.key = value;
                            else
                                delete message.key;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TopicKey.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TopicKey";
            };

            return TopicKey;
        })();

        v1.PurgeKeysCommand = (function() {

            const PurgeKeysCommand = function (properties) {
                this.keys = [];
                this.requests = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PurgeKeysCommand.prototype.keys = $util.emptyArray;
            PurgeKeysCommand.prototype.requests = $util.emptyArray;

            PurgeKeysCommand.create = function(properties) {
                return new PurgeKeysCommand(properties);
            };

            PurgeKeysCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.keys != null && message.keys.length)
                    for (let i = 0; i < message.keys.length; ++i)
                        $root.fermata.v1.TopicKey.encode(message.keys[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.requests != null && message.requests.length)
                    for (let i = 0; i < message.requests.length; ++i)
                        writer.uint32(18).string(message.requests[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PurgeKeysCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PurgeKeysCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.keys && message.keys.length))
                                message.keys = [];
                            message.keys.push($root.fermata.v1.TopicKey.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.requests && message.requests.length))
                                message.requests = [];
                            message.requests.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PurgeKeysCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PurgeKeysCommand";
            };

            return PurgeKeysCommand;
        })();

        v1.CreateTopicCommand = (function() {

            const CreateTopicCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateTopicCommand.prototype.name = "";
            CreateTopicCommand.prototype.settings = null;

            CreateTopicCommand.create = function(properties) {
                return new CreateTopicCommand(properties);
            };

            CreateTopicCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.TopicSettings.encode(message.settings, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateTopicCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CreateTopicCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.TopicSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateTopicCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CreateTopicCommand";
            };

            return CreateTopicCommand;
        })();

        v1.UpdateTopicCommand = (function() {

            const UpdateTopicCommand = function (properties) {
                this.updateMask = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpdateTopicCommand.prototype.name = "";
            UpdateTopicCommand.prototype.settings = null;
            UpdateTopicCommand.prototype.updateMask = $util.emptyArray;

            UpdateTopicCommand.create = function(properties) {
                return new UpdateTopicCommand(properties);
            };

            UpdateTopicCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.TopicSettings.encode(message.settings, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.updateMask != null && message.updateMask.length)
                    for (let i = 0; i < message.updateMask.length; ++i)
                        writer.uint32(26).string(message.updateMask[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpdateTopicCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpdateTopicCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.TopicSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.updateMask && message.updateMask.length))
                                message.updateMask = [];
                            message.updateMask.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpdateTopicCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpdateTopicCommand";
            };

            return UpdateTopicCommand;
        })();

        v1.DeleteTopicCommand = (function() {

            const DeleteTopicCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteTopicCommand.prototype.name = "";

            DeleteTopicCommand.create = function(properties) {
                return new DeleteTopicCommand(properties);
            };

            DeleteTopicCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteTopicCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeleteTopicCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteTopicCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeleteTopicCommand";
            };

            return DeleteTopicCommand;
        })();

        v1.CreateGroupCommand = (function() {

            const CreateGroupCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            CreateGroupCommand.prototype.topic = "";
            CreateGroupCommand.prototype.group = "";
            CreateGroupCommand.prototype.settings = null;

            CreateGroupCommand.create = function(properties) {
                return new CreateGroupCommand(properties);
            };

            CreateGroupCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.GroupSettings.encode(message.settings, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            CreateGroupCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.CreateGroupCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            CreateGroupCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.CreateGroupCommand";
            };

            return CreateGroupCommand;
        })();

        v1.UpdateGroupCommand = (function() {

            const UpdateGroupCommand = function (properties) {
                this.updateMask = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpdateGroupCommand.prototype.topic = "";
            UpdateGroupCommand.prototype.group = "";
            UpdateGroupCommand.prototype.settings = null;
            UpdateGroupCommand.prototype.updateMask = $util.emptyArray;

            UpdateGroupCommand.create = function(properties) {
                return new UpdateGroupCommand(properties);
            };

            UpdateGroupCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.GroupSettings.encode(message.settings, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.updateMask != null && message.updateMask.length)
                    for (let i = 0; i < message.updateMask.length; ++i)
                        writer.uint32(34).string(message.updateMask[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpdateGroupCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpdateGroupCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (!(message.updateMask && message.updateMask.length))
                                message.updateMask = [];
                            message.updateMask.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpdateGroupCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpdateGroupCommand";
            };

            return UpdateGroupCommand;
        })();

        v1.DeleteGroupCommand = (function() {

            const DeleteGroupCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeleteGroupCommand.prototype.topic = "";
            DeleteGroupCommand.prototype.group = "";

            DeleteGroupCommand.create = function(properties) {
                return new DeleteGroupCommand(properties);
            };

            DeleteGroupCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeleteGroupCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeleteGroupCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeleteGroupCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeleteGroupCommand";
            };

            return DeleteGroupCommand;
        })();

        v1.PurgeCommand = (function() {

            const PurgeCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PurgeCommand.prototype.topic = "";
            PurgeCommand.prototype.group = "";
            PurgeCommand.prototype.maxRecords = 0;

            PurgeCommand.create = function(properties) {
                return new PurgeCommand(properties);
            };

            PurgeCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.maxRecords != null && $Object.hasOwnProperty.call(message, "maxRecords") && message.maxRecords !== 0)
                    writer.uint32(24).uint32(message.maxRecords);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PurgeCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PurgeCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.maxRecords = value;
                            else
                                delete message.maxRecords;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PurgeCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PurgeCommand";
            };

            return PurgeCommand;
        })();

        v1.ApplyLimitsCommand = (function() {

            const ApplyLimitsCommand = function (properties) {
                this.values = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ApplyLimitsCommand.prototype.values = $util.emptyObject;

            ApplyLimitsCommand.create = function(properties) {
                return new ApplyLimitsCommand(properties);
            };

            ApplyLimitsCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.values != null && $Object.hasOwnProperty.call(message, "values"))
                    for (let keys = $Object.keys(message.values), i = 0; i < keys.length; ++i)
                        writer.uint32(10).fork().uint32(10).string(keys[i]).uint32(17).double(message.values[keys[i]]).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ApplyLimitsCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ApplyLimitsCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (message.values === $util.emptyObject)
                                message.values = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = 0;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 1)
                                        break;
                                    value = reader.double();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.values, key);
                            message.values[key] = value;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ApplyLimitsCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ApplyLimitsCommand";
            };

            return ApplyLimitsCommand;
        })();

        v1.RedriveCommand = (function() {

            const RedriveCommand = function (properties) {
                this.ids = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RedriveCommand.prototype.topic = "";
            RedriveCommand.prototype.ids = $util.emptyArray;
            RedriveCommand.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RedriveCommand.prototype.idCount = 0;
            RedriveCommand.prototype.sourceTopic = "";

            RedriveCommand.create = function(properties) {
                return new RedriveCommand(properties);
            };

            RedriveCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.ids != null && message.ids.length)
                    writer.uint32(18).uint64s(message.ids);
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(24).uint64(message.firstId);
                if (message.idCount != null && $Object.hasOwnProperty.call(message, "idCount") && message.idCount !== 0)
                    writer.uint32(32).uint32(message.idCount);
                if (message.sourceTopic != null && $Object.hasOwnProperty.call(message, "sourceTopic") && message.sourceTopic !== "")
                    writer.uint32(42).string(message.sourceTopic);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RedriveCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RedriveCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType === 2) {
                                if (!(message.ids && message.ids.length))
                                    message.ids = [];
                                reader.uint64s(message.ids);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.ids && message.ids.length))
                                message.ids = [];
                            message.ids.push(reader.uint64());
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.idCount = value;
                            else
                                delete message.idCount;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.sourceTopic = value;
                            else
                                delete message.sourceTopic;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RedriveCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RedriveCommand";
            };

            return RedriveCommand;
        })();

        v1.Schedules = (function() {

            const Schedules = function(rpcImpl, requestDelimited, responseDelimited) {
                $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
            };

            $Object.defineProperty(Schedules.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: Schedules, writable: true, enumerable: false, configurable: true });

            Schedules.create = function(rpcImpl, requestDelimited, responseDelimited) {
                return new this(rpcImpl, requestDelimited, responseDelimited);
            };



            $Object.defineProperties(Schedules.prototype.upsertSchedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.upsertSchedule, $root.fermata.v1.UpsertScheduleRequest, $root.fermata.v1.UpsertScheduleResponse, request, callback);
            }, {
                name: { value: "UpsertSchedule" },
                path: { value: "/fermata.v1.Schedules/UpsertSchedule" },
                requestType: { value: "UpsertScheduleRequest" },
                responseType: { value: "UpsertScheduleResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.upsertSchedules = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.upsertSchedules, $root.fermata.v1.UpsertSchedulesRequest, $root.fermata.v1.UpsertSchedulesResponse, request, callback);
            }, {
                name: { value: "UpsertSchedules" },
                path: { value: "/fermata.v1.Schedules/UpsertSchedules" },
                requestType: { value: "UpsertSchedulesRequest" },
                responseType: { value: "UpsertSchedulesResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.getSchedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.getSchedule, $root.fermata.v1.GetScheduleRequest, $root.fermata.v1.GetScheduleResponse, request, callback);
            }, {
                name: { value: "GetSchedule" },
                path: { value: "/fermata.v1.Schedules/GetSchedule" },
                requestType: { value: "GetScheduleRequest" },
                responseType: { value: "GetScheduleResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.listSchedules = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.listSchedules, $root.fermata.v1.ListSchedulesRequest, $root.fermata.v1.ListSchedulesResponse, request, callback);
            }, {
                name: { value: "ListSchedules" },
                path: { value: "/fermata.v1.Schedules/ListSchedules" },
                requestType: { value: "ListSchedulesRequest" },
                responseType: { value: "ListSchedulesResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.pauseSchedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.pauseSchedule, $root.fermata.v1.ScheduleRef, $root.fermata.v1.ScheduleStatusResponse, request, callback);
            }, {
                name: { value: "PauseSchedule" },
                path: { value: "/fermata.v1.Schedules/PauseSchedule" },
                requestType: { value: "ScheduleRef" },
                responseType: { value: "ScheduleStatusResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.resumeSchedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.resumeSchedule, $root.fermata.v1.ScheduleRef, $root.fermata.v1.ScheduleStatusResponse, request, callback);
            }, {
                name: { value: "ResumeSchedule" },
                path: { value: "/fermata.v1.Schedules/ResumeSchedule" },
                requestType: { value: "ScheduleRef" },
                responseType: { value: "ScheduleStatusResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.triggerSchedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.triggerSchedule, $root.fermata.v1.ScheduleRef, $root.fermata.v1.TriggerScheduleResponse, request, callback);
            }, {
                name: { value: "TriggerSchedule" },
                path: { value: "/fermata.v1.Schedules/TriggerSchedule" },
                requestType: { value: "ScheduleRef" },
                responseType: { value: "TriggerScheduleResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Schedules.prototype.deleteSchedule = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Schedules.prototype.deleteSchedule, $root.fermata.v1.ScheduleRef, $root.fermata.v1.ScheduleStatusResponse, request, callback);
            }, {
                name: { value: "DeleteSchedule" },
                path: { value: "/fermata.v1.Schedules/DeleteSchedule" },
                requestType: { value: "ScheduleRef" },
                responseType: { value: "ScheduleStatusResponse" },
                requestStream: { value: $undefined },
                responseStream: { value: $undefined }
            });

            return Schedules;
        })();

        v1.CatchUp = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "CATCH_UP_UNSPECIFIED"] = 0;
            values[valuesById[1] = "CATCH_UP_NONE"] = 1;
            values[valuesById[2] = "CATCH_UP_LATEST"] = 2;
            values[valuesById[3] = "CATCH_UP_ALL"] = 3;
            return values;
        })();

        v1.DstPolicy = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "DST_POLICY_UNSPECIFIED"] = 0;
            values[valuesById[1] = "DST_POLICY_ONCE"] = 1;
            values[valuesById[2] = "DST_POLICY_BOTH"] = 2;
            return values;
        })();

        v1.ScheduleDefinition = (function() {

            const ScheduleDefinition = function (properties) {
                this.headers = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleDefinition.prototype.topic = "";
            ScheduleDefinition.prototype.name = "";
            ScheduleDefinition.prototype.spec = "";
            ScheduleDefinition.prototype.timeZone = "";
            ScheduleDefinition.prototype.payload = $util.newBuffer([]);
            ScheduleDefinition.prototype.headers = $util.emptyObject;
            ScheduleDefinition.prototype.keyTemplate = "";
            ScheduleDefinition.prototype.startAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleDefinition.prototype.endAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleDefinition.prototype.jitterMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleDefinition.prototype.catchUp = 0;
            ScheduleDefinition.prototype.dstPolicy = 0;
            ScheduleDefinition.prototype.misfireThresholdMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleDefinition.prototype.paused = false;

            ScheduleDefinition.create = function(properties) {
                return new ScheduleDefinition(properties);
            };

            ScheduleDefinition.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(18).string(message.name);
                if (message.spec != null && $Object.hasOwnProperty.call(message, "spec") && message.spec !== "")
                    writer.uint32(26).string(message.spec);
                if (message.timeZone != null && $Object.hasOwnProperty.call(message, "timeZone") && message.timeZone !== "")
                    writer.uint32(34).string(message.timeZone);
                if (message.payload != null && $Object.hasOwnProperty.call(message, "payload") && message.payload.length)
                    writer.uint32(42).bytes(message.payload);
                if (message.headers != null && $Object.hasOwnProperty.call(message, "headers"))
                    for (let keys = $Object.keys(message.headers), i = 0; i < keys.length; ++i)
                        writer.uint32(50).fork().uint32(10).string(keys[i]).uint32(18).string(message.headers[keys[i]]).ldelim();
                if (message.keyTemplate != null && $Object.hasOwnProperty.call(message, "keyTemplate") && message.keyTemplate !== "")
                    writer.uint32(58).string(message.keyTemplate);
                if (message.startAtMs != null && $Object.hasOwnProperty.call(message, "startAtMs") && (typeof message.startAtMs === "object" ? message.startAtMs.low || message.startAtMs.high : message.startAtMs !== 0))
                    writer.uint32(64).int64(message.startAtMs);
                if (message.endAtMs != null && $Object.hasOwnProperty.call(message, "endAtMs") && (typeof message.endAtMs === "object" ? message.endAtMs.low || message.endAtMs.high : message.endAtMs !== 0))
                    writer.uint32(72).int64(message.endAtMs);
                if (message.jitterMs != null && $Object.hasOwnProperty.call(message, "jitterMs") && (typeof message.jitterMs === "object" ? message.jitterMs.low || message.jitterMs.high : message.jitterMs !== 0))
                    writer.uint32(80).int64(message.jitterMs);
                if (message.catchUp != null && $Object.hasOwnProperty.call(message, "catchUp") && message.catchUp !== 0)
                    writer.uint32(88).int32(message.catchUp);
                if (message.dstPolicy != null && $Object.hasOwnProperty.call(message, "dstPolicy") && message.dstPolicy !== 0)
                    writer.uint32(96).int32(message.dstPolicy);
                if (message.misfireThresholdMs != null && $Object.hasOwnProperty.call(message, "misfireThresholdMs") && (typeof message.misfireThresholdMs === "object" ? message.misfireThresholdMs.low || message.misfireThresholdMs.high : message.misfireThresholdMs !== 0))
                    writer.uint32(104).int64(message.misfireThresholdMs);
                if (message.paused != null && $Object.hasOwnProperty.call(message, "paused") && message.paused !== false)
                    writer.uint32(112).bool(message.paused);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleDefinition.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleDefinition();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.spec = value;
                            else
                                delete message.spec;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.timeZone = value;
                            else
                                delete message.timeZone;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.payload = value;
                            else
                                delete message.payload;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if (message.headers === $util.emptyObject)
                                message.headers = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.headers, key);
                            message.headers[key] = value;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.keyTemplate = value;
                            else
                                delete message.keyTemplate;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.startAtMs = value;
                            else
                                delete message.startAtMs;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.endAtMs = value;
                            else
                                delete message.endAtMs;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.jitterMs = value;
                            else
                                delete message.jitterMs;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.catchUp = value;
                            else
                                delete message.catchUp;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.dstPolicy = value;
                            else
                                delete message.dstPolicy;
                            continue;
                        }
                    case 13: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.misfireThresholdMs = value;
                            else
                                delete message.misfireThresholdMs;
                            continue;
                        }
                    case 14: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.paused = value;
                            else
                                delete message.paused;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleDefinition.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleDefinition";
            };

            return ScheduleDefinition;
        })();

        v1.ScheduleRecord = (function() {

            const ScheduleRecord = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleRecord.prototype.definition = null;
            ScheduleRecord.prototype.paused = false;
            ScheduleRecord.prototype.cursorMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleRecord.prototype.generation = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            ScheduleRecord.prototype.createdAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleRecord.prototype.updatedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleRecord.prototype.fired = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            ScheduleRecord.prototype.skipped = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            ScheduleRecord.prototype.lastFiredMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleRecord.prototype.owner = "";

            ScheduleRecord.create = function(properties) {
                return new ScheduleRecord(properties);
            };

            ScheduleRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.definition != null && $Object.hasOwnProperty.call(message, "definition"))
                    $root.fermata.v1.ScheduleDefinition.encode(message.definition, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.paused != null && $Object.hasOwnProperty.call(message, "paused") && message.paused !== false)
                    writer.uint32(16).bool(message.paused);
                if (message.cursorMs != null && $Object.hasOwnProperty.call(message, "cursorMs") && (typeof message.cursorMs === "object" ? message.cursorMs.low || message.cursorMs.high : message.cursorMs !== 0))
                    writer.uint32(24).int64(message.cursorMs);
                if (message.generation != null && $Object.hasOwnProperty.call(message, "generation") && (typeof message.generation === "object" ? message.generation.low || message.generation.high : message.generation !== 0))
                    writer.uint32(32).uint64(message.generation);
                if (message.createdAtMs != null && $Object.hasOwnProperty.call(message, "createdAtMs") && (typeof message.createdAtMs === "object" ? message.createdAtMs.low || message.createdAtMs.high : message.createdAtMs !== 0))
                    writer.uint32(40).int64(message.createdAtMs);
                if (message.updatedAtMs != null && $Object.hasOwnProperty.call(message, "updatedAtMs") && (typeof message.updatedAtMs === "object" ? message.updatedAtMs.low || message.updatedAtMs.high : message.updatedAtMs !== 0))
                    writer.uint32(48).int64(message.updatedAtMs);
                if (message.fired != null && $Object.hasOwnProperty.call(message, "fired") && (typeof message.fired === "object" ? message.fired.low || message.fired.high : message.fired !== 0))
                    writer.uint32(56).uint64(message.fired);
                if (message.skipped != null && $Object.hasOwnProperty.call(message, "skipped") && (typeof message.skipped === "object" ? message.skipped.low || message.skipped.high : message.skipped !== 0))
                    writer.uint32(64).uint64(message.skipped);
                if (message.lastFiredMs != null && $Object.hasOwnProperty.call(message, "lastFiredMs") && (typeof message.lastFiredMs === "object" ? message.lastFiredMs.low || message.lastFiredMs.high : message.lastFiredMs !== 0))
                    writer.uint32(72).int64(message.lastFiredMs);
                if (message.owner != null && $Object.hasOwnProperty.call(message, "owner") && message.owner !== "")
                    writer.uint32(82).string(message.owner);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.definition = $root.fermata.v1.ScheduleDefinition.decode(reader, reader.size(), $undefined, _depth + 1, message.definition);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.paused = value;
                            else
                                delete message.paused;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.cursorMs = value;
                            else
                                delete message.cursorMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.generation = value;
                            else
                                delete message.generation;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.createdAtMs = value;
                            else
                                delete message.createdAtMs;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.updatedAtMs = value;
                            else
                                delete message.updatedAtMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.fired = value;
                            else
                                delete message.fired;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.skipped = value;
                            else
                                delete message.skipped;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.lastFiredMs = value;
                            else
                                delete message.lastFiredMs;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.owner = value;
                            else
                                delete message.owner;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleRecord";
            };

            return ScheduleRecord;
        })();

        v1.ScheduleRefCommand = (function() {

            const ScheduleRefCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleRefCommand.prototype.topic = "";
            ScheduleRefCommand.prototype.name = "";

            ScheduleRefCommand.create = function(properties) {
                return new ScheduleRefCommand(properties);
            };

            ScheduleRefCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(18).string(message.name);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleRefCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleRefCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleRefCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleRefCommand";
            };

            return ScheduleRefCommand;
        })();

        v1.ScheduleFire = (function() {

            const ScheduleFire = function (properties) {
                this.occurrences = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleFire.prototype.topic = "";
            ScheduleFire.prototype.name = "";
            ScheduleFire.prototype.generation = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            ScheduleFire.prototype.afterMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleFire.prototype.skipToMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            ScheduleFire.prototype.skipped = 0;
            ScheduleFire.prototype.occurrences = $util.emptyArray;

            ScheduleFire.create = function(properties) {
                return new ScheduleFire(properties);
            };

            ScheduleFire.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(18).string(message.name);
                if (message.generation != null && $Object.hasOwnProperty.call(message, "generation") && (typeof message.generation === "object" ? message.generation.low || message.generation.high : message.generation !== 0))
                    writer.uint32(24).uint64(message.generation);
                if (message.afterMs != null && $Object.hasOwnProperty.call(message, "afterMs") && (typeof message.afterMs === "object" ? message.afterMs.low || message.afterMs.high : message.afterMs !== 0))
                    writer.uint32(32).int64(message.afterMs);
                if (message.skipToMs != null && $Object.hasOwnProperty.call(message, "skipToMs") && (typeof message.skipToMs === "object" ? message.skipToMs.low || message.skipToMs.high : message.skipToMs !== 0))
                    writer.uint32(40).int64(message.skipToMs);
                if (message.skipped != null && $Object.hasOwnProperty.call(message, "skipped") && message.skipped !== 0)
                    writer.uint32(48).uint32(message.skipped);
                if (message.occurrences != null && message.occurrences.length)
                    writer.uint32(58).int64s(message.occurrences);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleFire.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleFire();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.generation = value;
                            else
                                delete message.generation;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.afterMs = value;
                            else
                                delete message.afterMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.skipToMs = value;
                            else
                                delete message.skipToMs;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.skipped = value;
                            else
                                delete message.skipped;
                            continue;
                        }
                    case 7: {
                            if (wireType === 2) {
                                if (!(message.occurrences && message.occurrences.length))
                                    message.occurrences = [];
                                reader.int64s(message.occurrences);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.occurrences && message.occurrences.length))
                                message.occurrences = [];
                            message.occurrences.push(reader.int64());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleFire.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleFire";
            };

            return ScheduleFire;
        })();

        v1.FireSchedulesCommand = (function() {

            const FireSchedulesCommand = function (properties) {
                this.fires = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            FireSchedulesCommand.prototype.fires = $util.emptyArray;
            FireSchedulesCommand.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            FireSchedulesCommand.create = function(properties) {
                return new FireSchedulesCommand(properties);
            };

            FireSchedulesCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.fires != null && message.fires.length)
                    for (let i = 0; i < message.fires.length; ++i)
                        $root.fermata.v1.ScheduleFire.encode(message.fires[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(16).uint64(message.firstId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            FireSchedulesCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.FireSchedulesCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.fires && message.fires.length))
                                message.fires = [];
                            message.fires.push($root.fermata.v1.ScheduleFire.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            FireSchedulesCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.FireSchedulesCommand";
            };

            return FireSchedulesCommand;
        })();

        v1.ScheduleCommand = (function() {

            const ScheduleCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleCommand.prototype.upsert = null;
            ScheduleCommand.prototype["delete"] = null;
            ScheduleCommand.prototype.pause = null;
            ScheduleCommand.prototype.resume = null;
            ScheduleCommand.prototype.trigger = null;
            ScheduleCommand.prototype.fire = null;
            ScheduleCommand.prototype.upsertMany = null;
            ScheduleCommand.prototype.owner = "";
            ScheduleCommand.prototype.ownerLimit = 0;

            let $oneOfFields;

            $Object.defineProperty(ScheduleCommand.prototype, "op", {
                get: $util.oneOfGetter($oneOfFields = ["upsert", "delete", "pause", "resume", "trigger", "fire", "upsertMany"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            ScheduleCommand.create = function(properties) {
                return new ScheduleCommand(properties);
            };

            ScheduleCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.upsert != null && $Object.hasOwnProperty.call(message, "upsert"))
                    $root.fermata.v1.ScheduleDefinition.encode(message.upsert, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message["delete"] != null && $Object.hasOwnProperty.call(message, "delete"))
                    $root.fermata.v1.ScheduleRefCommand.encode(message["delete"], writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.pause != null && $Object.hasOwnProperty.call(message, "pause"))
                    $root.fermata.v1.ScheduleRefCommand.encode(message.pause, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.resume != null && $Object.hasOwnProperty.call(message, "resume"))
                    $root.fermata.v1.ScheduleRefCommand.encode(message.resume, writer.uint32(34).fork(), _depth + 1).ldelim();
                if (message.trigger != null && $Object.hasOwnProperty.call(message, "trigger"))
                    $root.fermata.v1.TriggerScheduleCommand.encode(message.trigger, writer.uint32(42).fork(), _depth + 1).ldelim();
                if (message.fire != null && $Object.hasOwnProperty.call(message, "fire"))
                    $root.fermata.v1.FireSchedulesCommand.encode(message.fire, writer.uint32(50).fork(), _depth + 1).ldelim();
                if (message.upsertMany != null && $Object.hasOwnProperty.call(message, "upsertMany"))
                    $root.fermata.v1.UpsertSchedulesCommand.encode(message.upsertMany, writer.uint32(58).fork(), _depth + 1).ldelim();
                if (message.owner != null && $Object.hasOwnProperty.call(message, "owner") && message.owner !== "")
                    writer.uint32(82).string(message.owner);
                if (message.ownerLimit != null && $Object.hasOwnProperty.call(message, "ownerLimit") && message.ownerLimit !== 0)
                    writer.uint32(88).uint32(message.ownerLimit);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.upsert = $root.fermata.v1.ScheduleDefinition.decode(reader, reader.size(), $undefined, _depth + 1, message.upsert);
                            message.op = "upsert";
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message["delete"] = $root.fermata.v1.ScheduleRefCommand.decode(reader, reader.size(), $undefined, _depth + 1, message["delete"]);
                            message.op = "delete";
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.pause = $root.fermata.v1.ScheduleRefCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.pause);
                            message.op = "pause";
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            message.resume = $root.fermata.v1.ScheduleRefCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.resume);
                            message.op = "resume";
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            message.trigger = $root.fermata.v1.TriggerScheduleCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.trigger);
                            message.op = "trigger";
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            message.fire = $root.fermata.v1.FireSchedulesCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.fire);
                            message.op = "fire";
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            message.upsertMany = $root.fermata.v1.UpsertSchedulesCommand.decode(reader, reader.size(), $undefined, _depth + 1, message.upsertMany);
                            message.op = "upsertMany";
                            continue;
                        }
                    case 10: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.owner = value;
                            else
                                delete message.owner;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.ownerLimit = value;
                            else
                                delete message.ownerLimit;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleCommand";
            };

            return ScheduleCommand;
        })();

        v1.UpsertSchedulesCommand = (function() {

            const UpsertSchedulesCommand = function (properties) {
                this.schedules = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpsertSchedulesCommand.prototype.schedules = $util.emptyArray;

            UpsertSchedulesCommand.create = function(properties) {
                return new UpsertSchedulesCommand(properties);
            };

            UpsertSchedulesCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.schedules != null && message.schedules.length)
                    for (let i = 0; i < message.schedules.length; ++i)
                        $root.fermata.v1.ScheduleDefinition.encode(message.schedules[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpsertSchedulesCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpsertSchedulesCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.schedules && message.schedules.length))
                                message.schedules = [];
                            message.schedules.push($root.fermata.v1.ScheduleDefinition.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpsertSchedulesCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpsertSchedulesCommand";
            };

            return UpsertSchedulesCommand;
        })();

        v1.TriggerScheduleCommand = (function() {

            const TriggerScheduleCommand = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TriggerScheduleCommand.prototype.topic = "";
            TriggerScheduleCommand.prototype.name = "";
            TriggerScheduleCommand.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            TriggerScheduleCommand.create = function(properties) {
                return new TriggerScheduleCommand(properties);
            };

            TriggerScheduleCommand.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(18).string(message.name);
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(24).uint64(message.firstId);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TriggerScheduleCommand.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TriggerScheduleCommand();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TriggerScheduleCommand.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TriggerScheduleCommand";
            };

            return TriggerScheduleCommand;
        })();

        v1.Schedule = (function() {

            const Schedule = function (properties) {
                this.nextFireMs = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            Schedule.prototype.definition = null;
            Schedule.prototype.paused = false;
            Schedule.prototype.createdAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Schedule.prototype.updatedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Schedule.prototype.fired = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Schedule.prototype.skipped = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            Schedule.prototype.lastFiredMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            Schedule.prototype.nextFireMs = $util.emptyArray;
            Schedule.prototype.broken = "";

            Schedule.create = function(properties) {
                return new Schedule(properties);
            };

            Schedule.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.definition != null && $Object.hasOwnProperty.call(message, "definition"))
                    $root.fermata.v1.ScheduleDefinition.encode(message.definition, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.paused != null && $Object.hasOwnProperty.call(message, "paused") && message.paused !== false)
                    writer.uint32(16).bool(message.paused);
                if (message.createdAtMs != null && $Object.hasOwnProperty.call(message, "createdAtMs") && (typeof message.createdAtMs === "object" ? message.createdAtMs.low || message.createdAtMs.high : message.createdAtMs !== 0))
                    writer.uint32(24).int64(message.createdAtMs);
                if (message.updatedAtMs != null && $Object.hasOwnProperty.call(message, "updatedAtMs") && (typeof message.updatedAtMs === "object" ? message.updatedAtMs.low || message.updatedAtMs.high : message.updatedAtMs !== 0))
                    writer.uint32(32).int64(message.updatedAtMs);
                if (message.fired != null && $Object.hasOwnProperty.call(message, "fired") && (typeof message.fired === "object" ? message.fired.low || message.fired.high : message.fired !== 0))
                    writer.uint32(40).uint64(message.fired);
                if (message.skipped != null && $Object.hasOwnProperty.call(message, "skipped") && (typeof message.skipped === "object" ? message.skipped.low || message.skipped.high : message.skipped !== 0))
                    writer.uint32(48).uint64(message.skipped);
                if (message.lastFiredMs != null && $Object.hasOwnProperty.call(message, "lastFiredMs") && (typeof message.lastFiredMs === "object" ? message.lastFiredMs.low || message.lastFiredMs.high : message.lastFiredMs !== 0))
                    writer.uint32(56).int64(message.lastFiredMs);
                if (message.nextFireMs != null && message.nextFireMs.length)
                    writer.uint32(66).int64s(message.nextFireMs);
                if (message.broken != null && $Object.hasOwnProperty.call(message, "broken") && message.broken !== "")
                    writer.uint32(74).string(message.broken);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            Schedule.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.Schedule();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.definition = $root.fermata.v1.ScheduleDefinition.decode(reader, reader.size(), $undefined, _depth + 1, message.definition);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.paused = value;
                            else
                                delete message.paused;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.createdAtMs = value;
                            else
                                delete message.createdAtMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.updatedAtMs = value;
                            else
                                delete message.updatedAtMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.fired = value;
                            else
                                delete message.fired;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.skipped = value;
                            else
                                delete message.skipped;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.lastFiredMs = value;
                            else
                                delete message.lastFiredMs;
                            continue;
                        }
                    case 8: {
                            if (wireType === 2) {
                                if (!(message.nextFireMs && message.nextFireMs.length))
                                    message.nextFireMs = [];
                                reader.int64s(message.nextFireMs);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.nextFireMs && message.nextFireMs.length))
                                message.nextFireMs = [];
                            message.nextFireMs.push(reader.int64());
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.broken = value;
                            else
                                delete message.broken;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            Schedule.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.Schedule";
            };

            return Schedule;
        })();

        v1.UpsertScheduleRequest = (function() {

            const UpsertScheduleRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpsertScheduleRequest.prototype.schedule = null;

            UpsertScheduleRequest.create = function(properties) {
                return new UpsertScheduleRequest(properties);
            };

            UpsertScheduleRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.schedule != null && $Object.hasOwnProperty.call(message, "schedule"))
                    $root.fermata.v1.ScheduleDefinition.encode(message.schedule, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpsertScheduleRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpsertScheduleRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.schedule = $root.fermata.v1.ScheduleDefinition.decode(reader, reader.size(), $undefined, _depth + 1, message.schedule);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpsertScheduleRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpsertScheduleRequest";
            };

            return UpsertScheduleRequest;
        })();

        v1.UpsertScheduleResponse = (function() {

            const UpsertScheduleResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpsertScheduleResponse.prototype.schedule = null;
            UpsertScheduleResponse.prototype.created = false;

            UpsertScheduleResponse.create = function(properties) {
                return new UpsertScheduleResponse(properties);
            };

            UpsertScheduleResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.schedule != null && $Object.hasOwnProperty.call(message, "schedule"))
                    $root.fermata.v1.Schedule.encode(message.schedule, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.created != null && $Object.hasOwnProperty.call(message, "created") && message.created !== false)
                    writer.uint32(16).bool(message.created);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpsertScheduleResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpsertScheduleResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.schedule = $root.fermata.v1.Schedule.decode(reader, reader.size(), $undefined, _depth + 1, message.schedule);
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.created = value;
                            else
                                delete message.created;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpsertScheduleResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpsertScheduleResponse";
            };

            return UpsertScheduleResponse;
        })();

        v1.UpsertSchedulesRequest = (function() {

            const UpsertSchedulesRequest = function (properties) {
                this.schedules = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpsertSchedulesRequest.prototype.schedules = $util.emptyArray;

            UpsertSchedulesRequest.create = function(properties) {
                return new UpsertSchedulesRequest(properties);
            };

            UpsertSchedulesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.schedules != null && message.schedules.length)
                    for (let i = 0; i < message.schedules.length; ++i)
                        $root.fermata.v1.ScheduleDefinition.encode(message.schedules[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpsertSchedulesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpsertSchedulesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.schedules && message.schedules.length))
                                message.schedules = [];
                            message.schedules.push($root.fermata.v1.ScheduleDefinition.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpsertSchedulesRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpsertSchedulesRequest";
            };

            return UpsertSchedulesRequest;
        })();

        v1.UpsertSchedulesResponse = (function() {

            const UpsertSchedulesResponse = function (properties) {
                this.results = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            UpsertSchedulesResponse.prototype.results = $util.emptyArray;

            UpsertSchedulesResponse.create = function(properties) {
                return new UpsertSchedulesResponse(properties);
            };

            UpsertSchedulesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.results != null && message.results.length)
                    for (let i = 0; i < message.results.length; ++i)
                        $root.fermata.v1.UpsertScheduleResponse.encode(message.results[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            UpsertSchedulesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.UpsertSchedulesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.results && message.results.length))
                                message.results = [];
                            message.results.push($root.fermata.v1.UpsertScheduleResponse.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            UpsertSchedulesResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.UpsertSchedulesResponse";
            };

            return UpsertSchedulesResponse;
        })();

        v1.GetScheduleRequest = (function() {

            const GetScheduleRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetScheduleRequest.prototype.topic = "";
            GetScheduleRequest.prototype.name = "";
            GetScheduleRequest.prototype.next = 0;

            GetScheduleRequest.create = function(properties) {
                return new GetScheduleRequest(properties);
            };

            GetScheduleRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(18).string(message.name);
                if (message.next != null && $Object.hasOwnProperty.call(message, "next") && message.next !== 0)
                    writer.uint32(24).uint32(message.next);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetScheduleRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetScheduleRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.next = value;
                            else
                                delete message.next;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetScheduleRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetScheduleRequest";
            };

            return GetScheduleRequest;
        })();

        v1.GetScheduleResponse = (function() {

            const GetScheduleResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GetScheduleResponse.prototype.schedule = null;

            GetScheduleResponse.create = function(properties) {
                return new GetScheduleResponse(properties);
            };

            GetScheduleResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.schedule != null && $Object.hasOwnProperty.call(message, "schedule"))
                    $root.fermata.v1.Schedule.encode(message.schedule, writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GetScheduleResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GetScheduleResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            message.schedule = $root.fermata.v1.Schedule.decode(reader, reader.size(), $undefined, _depth + 1, message.schedule);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GetScheduleResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GetScheduleResponse";
            };

            return GetScheduleResponse;
        })();

        v1.ListSchedulesRequest = (function() {

            const ListSchedulesRequest = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListSchedulesRequest.prototype.topic = "";
            ListSchedulesRequest.prototype.afterName = "";
            ListSchedulesRequest.prototype.limit = 0;
            ListSchedulesRequest.prototype.next = 0;

            ListSchedulesRequest.create = function(properties) {
                return new ListSchedulesRequest(properties);
            };

            ListSchedulesRequest.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.afterName != null && $Object.hasOwnProperty.call(message, "afterName") && message.afterName !== "")
                    writer.uint32(18).string(message.afterName);
                if (message.limit != null && $Object.hasOwnProperty.call(message, "limit") && message.limit !== 0)
                    writer.uint32(24).uint32(message.limit);
                if (message.next != null && $Object.hasOwnProperty.call(message, "next") && message.next !== 0)
                    writer.uint32(32).uint32(message.next);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListSchedulesRequest.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListSchedulesRequest();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.afterName = value;
                            else
                                delete message.afterName;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.limit = value;
                            else
                                delete message.limit;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.next = value;
                            else
                                delete message.next;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListSchedulesRequest.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListSchedulesRequest";
            };

            return ListSchedulesRequest;
        })();

        v1.ListSchedulesResponse = (function() {

            const ListSchedulesResponse = function (properties) {
                this.schedules = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ListSchedulesResponse.prototype.schedules = $util.emptyArray;

            ListSchedulesResponse.create = function(properties) {
                return new ListSchedulesResponse(properties);
            };

            ListSchedulesResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.schedules != null && message.schedules.length)
                    for (let i = 0; i < message.schedules.length; ++i)
                        $root.fermata.v1.Schedule.encode(message.schedules[i], writer.uint32(10).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ListSchedulesResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ListSchedulesResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.schedules && message.schedules.length))
                                message.schedules = [];
                            message.schedules.push($root.fermata.v1.Schedule.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ListSchedulesResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ListSchedulesResponse";
            };

            return ListSchedulesResponse;
        })();

        v1.ScheduleRef = (function() {

            const ScheduleRef = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleRef.prototype.topic = "";
            ScheduleRef.prototype.name = "";

            ScheduleRef.create = function(properties) {
                return new ScheduleRef(properties);
            };

            ScheduleRef.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(18).string(message.name);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleRef.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleRef();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleRef.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleRef";
            };

            return ScheduleRef;
        })();

        v1.ScheduleStatus = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "SCHEDULE_STATUS_UNSPECIFIED"] = 0;
            values[valuesById[1] = "SCHEDULE_STATUS_DONE"] = 1;
            values[valuesById[2] = "SCHEDULE_STATUS_NOT_FOUND"] = 2;
            values[valuesById[3] = "SCHEDULE_STATUS_UNCHANGED"] = 3;
            return values;
        })();

        v1.ScheduleStatusResponse = (function() {

            const ScheduleStatusResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            ScheduleStatusResponse.prototype.status = 0;
            ScheduleStatusResponse.prototype.schedule = null;

            ScheduleStatusResponse.create = function(properties) {
                return new ScheduleStatusResponse(properties);
            };

            ScheduleStatusResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(8).int32(message.status);
                if (message.schedule != null && $Object.hasOwnProperty.call(message, "schedule"))
                    $root.fermata.v1.Schedule.encode(message.schedule, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            ScheduleStatusResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.ScheduleStatusResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.schedule = $root.fermata.v1.Schedule.decode(reader, reader.size(), $undefined, _depth + 1, message.schedule);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            ScheduleStatusResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.ScheduleStatusResponse";
            };

            return ScheduleStatusResponse;
        })();

        v1.TriggerScheduleResponse = (function() {

            const TriggerScheduleResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TriggerScheduleResponse.prototype.status = 0;
            TriggerScheduleResponse.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            TriggerScheduleResponse.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            TriggerScheduleResponse.create = function(properties) {
                return new TriggerScheduleResponse(properties);
            };

            TriggerScheduleResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.status != null && $Object.hasOwnProperty.call(message, "status") && message.status !== 0)
                    writer.uint32(8).int32(message.status);
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(16).uint64(message.id);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(24).int64(message.dueAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TriggerScheduleResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TriggerScheduleResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.status = value;
                            else
                                delete message.status;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TriggerScheduleResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TriggerScheduleResponse";
            };

            return TriggerScheduleResponse;
        })();

        v1.Raft = (function() {

            const Raft = function(rpcImpl, requestDelimited, responseDelimited) {
                $protobuf.rpc.Service.call(this, rpcImpl, requestDelimited, responseDelimited);
            };

            $Object.defineProperty(Raft.prototype = $Object.create($protobuf.rpc.Service.prototype), "constructor", { value: Raft, writable: true, enumerable: false, configurable: true });

            Raft.create = function(rpcImpl, requestDelimited, responseDelimited) {
                return new this(rpcImpl, requestDelimited, responseDelimited);
            };



            $Object.defineProperties(Raft.prototype.sendMessages = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Raft.prototype.sendMessages, $root.fermata.v1.RaftBatch, $root.fermata.v1.RaftBatchResponse, request, callback);
            }, {
                name: { value: "SendMessages" },
                path: { value: "/fermata.v1.Raft/SendMessages" },
                requestType: { value: "RaftBatch" },
                responseType: { value: "RaftBatchResponse" },
                requestStream: { value: true },
                responseStream: { value: $undefined }
            });



            $Object.defineProperties(Raft.prototype.installSnapshot = function(request, callback) {
                return $protobuf.rpc.Service.prototype.rpcCall.call(this, Raft.prototype.installSnapshot, $root.fermata.v1.SnapshotChunk, $root.fermata.v1.InstallSnapshotResponse, request, callback);
            }, {
                name: { value: "InstallSnapshot" },
                path: { value: "/fermata.v1.Raft/InstallSnapshot" },
                requestType: { value: "SnapshotChunk" },
                responseType: { value: "InstallSnapshotResponse" },
                requestStream: { value: true },
                responseStream: { value: $undefined }
            });

            return Raft;
        })();

        v1.RaftMessageType = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "RAFT_MESSAGE_TYPE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "RAFT_MESSAGE_TYPE_APPEND"] = 1;
            values[valuesById[2] = "RAFT_MESSAGE_TYPE_APPEND_RESPONSE"] = 2;
            values[valuesById[3] = "RAFT_MESSAGE_TYPE_VOTE"] = 3;
            values[valuesById[4] = "RAFT_MESSAGE_TYPE_VOTE_RESPONSE"] = 4;
            values[valuesById[5] = "RAFT_MESSAGE_TYPE_PRE_VOTE"] = 5;
            values[valuesById[6] = "RAFT_MESSAGE_TYPE_PRE_VOTE_RESPONSE"] = 6;
            values[valuesById[7] = "RAFT_MESSAGE_TYPE_HEARTBEAT"] = 7;
            values[valuesById[8] = "RAFT_MESSAGE_TYPE_HEARTBEAT_RESPONSE"] = 8;
            values[valuesById[9] = "RAFT_MESSAGE_TYPE_SNAPSHOT"] = 9;
            values[valuesById[10] = "RAFT_MESSAGE_TYPE_TIMEOUT_NOW"] = 10;
            values[valuesById[11] = "RAFT_MESSAGE_TYPE_READ_INDEX"] = 11;
            values[valuesById[12] = "RAFT_MESSAGE_TYPE_READ_INDEX_RESPONSE"] = 12;
            return values;
        })();

        v1.RaftEntryType = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "RAFT_ENTRY_TYPE_NORMAL"] = 0;
            values[valuesById[1] = "RAFT_ENTRY_TYPE_CONF_CHANGE"] = 1;
            return values;
        })();

        v1.RaftEntry = (function() {

            const RaftEntry = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RaftEntry.prototype.term = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftEntry.prototype.index = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftEntry.prototype.type = 0;
            RaftEntry.prototype.data = $util.newBuffer([]);

            RaftEntry.create = function(properties) {
                return new RaftEntry(properties);
            };

            RaftEntry.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.term != null && $Object.hasOwnProperty.call(message, "term") && (typeof message.term === "object" ? message.term.low || message.term.high : message.term !== 0))
                    writer.uint32(8).uint64(message.term);
                if (message.index != null && $Object.hasOwnProperty.call(message, "index") && (typeof message.index === "object" ? message.index.low || message.index.high : message.index !== 0))
                    writer.uint32(16).uint64(message.index);
                if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== 0)
                    writer.uint32(24).int32(message.type);
                if (message.data != null && $Object.hasOwnProperty.call(message, "data") && message.data.length)
                    writer.uint32(34).bytes(message.data);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RaftEntry.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RaftEntry();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.term = value;
                            else
                                delete message.term;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.index = value;
                            else
                                delete message.index;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.type = value;
                            else
                                delete message.type;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.data = value;
                            else
                                delete message.data;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RaftEntry.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RaftEntry";
            };

            return RaftEntry;
        })();

        v1.RaftConfState = (function() {

            const RaftConfState = function (properties) {
                this.voters = [];
                this.learners = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RaftConfState.prototype.voters = $util.emptyArray;
            RaftConfState.prototype.learners = $util.emptyArray;

            RaftConfState.create = function(properties) {
                return new RaftConfState(properties);
            };

            RaftConfState.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.voters != null && message.voters.length)
                    for (let i = 0; i < message.voters.length; ++i)
                        writer.uint32(10).string(message.voters[i]);
                if (message.learners != null && message.learners.length)
                    for (let i = 0; i < message.learners.length; ++i)
                        writer.uint32(18).string(message.learners[i]);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RaftConfState.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RaftConfState();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if (!(message.voters && message.voters.length))
                                message.voters = [];
                            message.voters.push(reader.stringVerify());
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if (!(message.learners && message.learners.length))
                                message.learners = [];
                            message.learners.push(reader.stringVerify());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RaftConfState.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RaftConfState";
            };

            return RaftConfState;
        })();

        v1.RaftSnapshotMeta = (function() {

            const RaftSnapshotMeta = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RaftSnapshotMeta.prototype.index = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftSnapshotMeta.prototype.term = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftSnapshotMeta.prototype.conf = null;

            RaftSnapshotMeta.create = function(properties) {
                return new RaftSnapshotMeta(properties);
            };

            RaftSnapshotMeta.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.index != null && $Object.hasOwnProperty.call(message, "index") && (typeof message.index === "object" ? message.index.low || message.index.high : message.index !== 0))
                    writer.uint32(8).uint64(message.index);
                if (message.term != null && $Object.hasOwnProperty.call(message, "term") && (typeof message.term === "object" ? message.term.low || message.term.high : message.term !== 0))
                    writer.uint32(16).uint64(message.term);
                if (message.conf != null && $Object.hasOwnProperty.call(message, "conf"))
                    $root.fermata.v1.RaftConfState.encode(message.conf, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RaftSnapshotMeta.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RaftSnapshotMeta();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.index = value;
                            else
                                delete message.index;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.term = value;
                            else
                                delete message.term;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.conf = $root.fermata.v1.RaftConfState.decode(reader, reader.size(), $undefined, _depth + 1, message.conf);
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RaftSnapshotMeta.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RaftSnapshotMeta";
            };

            return RaftSnapshotMeta;
        })();

        v1.RaftMessage = (function() {

            const RaftMessage = function (properties) {
                this.entries = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RaftMessage.prototype.type = 0;
            RaftMessage.prototype.from = "";
            RaftMessage.prototype.to = "";
            RaftMessage.prototype.term = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftMessage.prototype.logTerm = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftMessage.prototype.index = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftMessage.prototype.entries = $util.emptyArray;
            RaftMessage.prototype.commit = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftMessage.prototype.reject = false;
            RaftMessage.prototype.rejectHint = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftMessage.prototype.hintTerm = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RaftMessage.prototype.snapshot = null;
            RaftMessage.prototype.context = null;
            RaftMessage.prototype.wallTimeMs = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            let $oneOfFields;

            // Virtual OneOf for proto3 optional field
            $Object.defineProperty(RaftMessage.prototype, "_context", {
                get: $util.oneOfGetter($oneOfFields = ["context"]),
                set: $util.oneOfSetter($oneOfFields)
            });

            RaftMessage.create = function(properties) {
                return new RaftMessage(properties);
            };

            RaftMessage.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.type != null && $Object.hasOwnProperty.call(message, "type") && message.type !== 0)
                    writer.uint32(8).int32(message.type);
                if (message.from != null && $Object.hasOwnProperty.call(message, "from") && message.from !== "")
                    writer.uint32(18).string(message.from);
                if (message.to != null && $Object.hasOwnProperty.call(message, "to") && message.to !== "")
                    writer.uint32(26).string(message.to);
                if (message.term != null && $Object.hasOwnProperty.call(message, "term") && (typeof message.term === "object" ? message.term.low || message.term.high : message.term !== 0))
                    writer.uint32(32).uint64(message.term);
                if (message.logTerm != null && $Object.hasOwnProperty.call(message, "logTerm") && (typeof message.logTerm === "object" ? message.logTerm.low || message.logTerm.high : message.logTerm !== 0))
                    writer.uint32(40).uint64(message.logTerm);
                if (message.index != null && $Object.hasOwnProperty.call(message, "index") && (typeof message.index === "object" ? message.index.low || message.index.high : message.index !== 0))
                    writer.uint32(48).uint64(message.index);
                if (message.entries != null && message.entries.length)
                    for (let i = 0; i < message.entries.length; ++i)
                        $root.fermata.v1.RaftEntry.encode(message.entries[i], writer.uint32(58).fork(), _depth + 1).ldelim();
                if (message.commit != null && $Object.hasOwnProperty.call(message, "commit") && (typeof message.commit === "object" ? message.commit.low || message.commit.high : message.commit !== 0))
                    writer.uint32(64).uint64(message.commit);
                if (message.reject != null && $Object.hasOwnProperty.call(message, "reject") && message.reject !== false)
                    writer.uint32(72).bool(message.reject);
                if (message.rejectHint != null && $Object.hasOwnProperty.call(message, "rejectHint") && (typeof message.rejectHint === "object" ? message.rejectHint.low || message.rejectHint.high : message.rejectHint !== 0))
                    writer.uint32(80).uint64(message.rejectHint);
                if (message.hintTerm != null && $Object.hasOwnProperty.call(message, "hintTerm") && (typeof message.hintTerm === "object" ? message.hintTerm.low || message.hintTerm.high : message.hintTerm !== 0))
                    writer.uint32(88).uint64(message.hintTerm);
                if (message.snapshot != null && $Object.hasOwnProperty.call(message, "snapshot"))
                    $root.fermata.v1.RaftSnapshotMeta.encode(message.snapshot, writer.uint32(98).fork(), _depth + 1).ldelim();
                if (message.context != null && $Object.hasOwnProperty.call(message, "context"))
                    writer.uint32(106).bytes(message.context);
                if (message.wallTimeMs != null && $Object.hasOwnProperty.call(message, "wallTimeMs") && (typeof message.wallTimeMs === "object" ? message.wallTimeMs.low || message.wallTimeMs.high : message.wallTimeMs !== 0))
                    writer.uint32(112).uint64(message.wallTimeMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RaftMessage.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RaftMessage();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.type = value;
                            else
                                delete message.type;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.from = value;
                            else
                                delete message.from;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.to = value;
                            else
                                delete message.to;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.term = value;
                            else
                                delete message.term;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.logTerm = value;
                            else
                                delete message.logTerm;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.index = value;
                            else
                                delete message.index;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if (!(message.entries && message.entries.length))
                                message.entries = [];
                            message.entries.push($root.fermata.v1.RaftEntry.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.commit = value;
                            else
                                delete message.commit;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.reject = value;
                            else
                                delete message.reject;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.rejectHint = value;
                            else
                                delete message.rejectHint;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.hintTerm = value;
                            else
                                delete message.hintTerm;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 2)
                                break;
                            message.snapshot = $root.fermata.v1.RaftSnapshotMeta.decode(reader, reader.size(), $undefined, _depth + 1, message.snapshot);
                            continue;
                        }
                    case 13: {
                            if (wireType !== 2)
                                break;
                            message.context = reader.bytes();
                            message._context = "context";
                            continue;
                        }
                    case 14: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.wallTimeMs = value;
                            else
                                delete message.wallTimeMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RaftMessage.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RaftMessage";
            };

            return RaftMessage;
        })();

        v1.RaftBatch = (function() {

            const RaftBatch = function (properties) {
                this.messages = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RaftBatch.prototype.clusterId = "";
            RaftBatch.prototype.from = "";
            RaftBatch.prototype.messages = $util.emptyArray;
            RaftBatch.prototype.fromAddress = "";

            RaftBatch.create = function(properties) {
                return new RaftBatch(properties);
            };

            RaftBatch.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.clusterId != null && $Object.hasOwnProperty.call(message, "clusterId") && message.clusterId !== "")
                    writer.uint32(10).string(message.clusterId);
                if (message.from != null && $Object.hasOwnProperty.call(message, "from") && message.from !== "")
                    writer.uint32(18).string(message.from);
                if (message.messages != null && message.messages.length)
                    for (let i = 0; i < message.messages.length; ++i)
                        $root.fermata.v1.RaftMessage.encode(message.messages[i], writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.fromAddress != null && $Object.hasOwnProperty.call(message, "fromAddress") && message.fromAddress !== "")
                    writer.uint32(34).string(message.fromAddress);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RaftBatch.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RaftBatch();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.clusterId = value;
                            else
                                delete message.clusterId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.from = value;
                            else
                                delete message.from;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.messages && message.messages.length))
                                message.messages = [];
                            message.messages.push($root.fermata.v1.RaftMessage.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.fromAddress = value;
                            else
                                delete message.fromAddress;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RaftBatch.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RaftBatch";
            };

            return RaftBatch;
        })();

        v1.RaftBatchResponse = (function() {

            const RaftBatchResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RaftBatchResponse.create = function(properties) {
                return new RaftBatchResponse(properties);
            };

            RaftBatchResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RaftBatchResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RaftBatchResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    reader.skipType(tag & 7, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RaftBatchResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RaftBatchResponse";
            };

            return RaftBatchResponse;
        })();

        v1.SnapshotChunk = (function() {

            const SnapshotChunk = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            SnapshotChunk.prototype.clusterId = "";
            SnapshotChunk.prototype.from = "";
            SnapshotChunk.prototype.message = null;
            SnapshotChunk.prototype.data = $util.newBuffer([]);
            SnapshotChunk.prototype.sha256 = $util.newBuffer([]);
            SnapshotChunk.prototype.last = false;

            SnapshotChunk.create = function(properties) {
                return new SnapshotChunk(properties);
            };

            SnapshotChunk.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.clusterId != null && $Object.hasOwnProperty.call(message, "clusterId") && message.clusterId !== "")
                    writer.uint32(10).string(message.clusterId);
                if (message.from != null && $Object.hasOwnProperty.call(message, "from") && message.from !== "")
                    writer.uint32(18).string(message.from);
                if (message.message != null && $Object.hasOwnProperty.call(message, "message"))
                    $root.fermata.v1.RaftMessage.encode(message.message, writer.uint32(26).fork(), _depth + 1).ldelim();
                if (message.data != null && $Object.hasOwnProperty.call(message, "data") && message.data.length)
                    writer.uint32(34).bytes(message.data);
                if (message.sha256 != null && $Object.hasOwnProperty.call(message, "sha256") && message.sha256.length)
                    writer.uint32(42).bytes(message.sha256);
                if (message.last != null && $Object.hasOwnProperty.call(message, "last") && message.last !== false)
                    writer.uint32(48).bool(message.last);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            SnapshotChunk.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.SnapshotChunk();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.clusterId = value;
                            else
                                delete message.clusterId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.from = value;
                            else
                                delete message.from;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            message.message = $root.fermata.v1.RaftMessage.decode(reader, reader.size(), $undefined, _depth + 1, message.message);
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.data = value;
                            else
                                delete message.data;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.sha256 = value;
                            else
                                delete message.sha256;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.last = value;
                            else
                                delete message.last;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            SnapshotChunk.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.SnapshotChunk";
            };

            return SnapshotChunk;
        })();

        v1.InstallSnapshotResponse = (function() {

            const InstallSnapshotResponse = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            InstallSnapshotResponse.prototype.bytes = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            InstallSnapshotResponse.create = function(properties) {
                return new InstallSnapshotResponse(properties);
            };

            InstallSnapshotResponse.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.bytes != null && $Object.hasOwnProperty.call(message, "bytes") && (typeof message.bytes === "object" ? message.bytes.low || message.bytes.high : message.bytes !== 0))
                    writer.uint32(8).uint64(message.bytes);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            InstallSnapshotResponse.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.InstallSnapshotResponse();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.bytes = value;
                            else
                                delete message.bytes;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            InstallSnapshotResponse.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.InstallSnapshotResponse";
            };

            return InstallSnapshotResponse;
        })();

        v1.StoredMessage = (function() {

            const StoredMessage = function (properties) {
                this.headers = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            StoredMessage.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            StoredMessage.prototype.topic = "";
            StoredMessage.prototype.payload = $util.newBuffer([]);
            StoredMessage.prototype.headers = $util.emptyObject;
            StoredMessage.prototype.key = "";
            StoredMessage.prototype.enqueuedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            StoredMessage.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            StoredMessage.prototype.expireAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            StoredMessage.prototype.deadLetter = null;
            StoredMessage.prototype.indexImplied = false;
            StoredMessage.prototype.orderingKey = "";
            StoredMessage.prototype.deliverBeforeMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            StoredMessage.create = function(properties) {
                return new StoredMessage(properties);
            };

            StoredMessage.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(8).uint64(message.id);
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(18).string(message.topic);
                if (message.payload != null && $Object.hasOwnProperty.call(message, "payload") && message.payload.length)
                    writer.uint32(26).bytes(message.payload);
                if (message.headers != null && $Object.hasOwnProperty.call(message, "headers"))
                    for (let keys = $Object.keys(message.headers), i = 0; i < keys.length; ++i)
                        writer.uint32(34).fork().uint32(10).string(keys[i]).uint32(18).string(message.headers[keys[i]]).ldelim();
                if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                    writer.uint32(42).string(message.key);
                if (message.enqueuedAtMs != null && $Object.hasOwnProperty.call(message, "enqueuedAtMs") && (typeof message.enqueuedAtMs === "object" ? message.enqueuedAtMs.low || message.enqueuedAtMs.high : message.enqueuedAtMs !== 0))
                    writer.uint32(48).int64(message.enqueuedAtMs);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(56).int64(message.dueAtMs);
                if (message.expireAtMs != null && $Object.hasOwnProperty.call(message, "expireAtMs") && (typeof message.expireAtMs === "object" ? message.expireAtMs.low || message.expireAtMs.high : message.expireAtMs !== 0))
                    writer.uint32(64).int64(message.expireAtMs);
                if (message.deadLetter != null && $Object.hasOwnProperty.call(message, "deadLetter"))
                    $root.fermata.v1.DeadLetterInfo.encode(message.deadLetter, writer.uint32(74).fork(), _depth + 1).ldelim();
                if (message.indexImplied != null && $Object.hasOwnProperty.call(message, "indexImplied") && message.indexImplied !== false)
                    writer.uint32(80).bool(message.indexImplied);
                if (message.orderingKey != null && $Object.hasOwnProperty.call(message, "orderingKey") && message.orderingKey !== "")
                    writer.uint32(90).string(message.orderingKey);
                if (message.deliverBeforeMs != null && $Object.hasOwnProperty.call(message, "deliverBeforeMs") && (typeof message.deliverBeforeMs === "object" ? message.deliverBeforeMs.low || message.deliverBeforeMs.high : message.deliverBeforeMs !== 0))
                    writer.uint32(96).int64(message.deliverBeforeMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            StoredMessage.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.StoredMessage();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.payload = value;
                            else
                                delete message.payload;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (message.headers === $util.emptyObject)
                                message.headers = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = "";
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = reader.stringVerify();
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.headers, key);
                            message.headers[key] = value;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.key = value;
                            else
                                delete message.key;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.enqueuedAtMs = value;
                            else
                                delete message.enqueuedAtMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.expireAtMs = value;
                            else
                                delete message.expireAtMs;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            message.deadLetter = $root.fermata.v1.DeadLetterInfo.decode(reader, reader.size(), $undefined, _depth + 1, message.deadLetter);
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.indexImplied = value;
                            else
                                delete message.indexImplied;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.orderingKey = value;
                            else
                                delete message.orderingKey;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.deliverBeforeMs = value;
                            else
                                delete message.deliverBeforeMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            StoredMessage.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.StoredMessage";
            };

            return StoredMessage;
        })();

        v1.DeadLetterInfo = (function() {

            const DeadLetterInfo = function (properties) {
                this.deliveredAtMs = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            DeadLetterInfo.prototype.sourceTopic = "";
            DeadLetterInfo.prototype.sourceGroup = "";
            DeadLetterInfo.prototype.sourceId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            DeadLetterInfo.prototype.reason = "";
            DeadLetterInfo.prototype.attempts = 0;
            DeadLetterInfo.prototype.deliveredAtMs = $util.emptyArray;
            DeadLetterInfo.prototype.sourceKey = "";
            DeadLetterInfo.prototype.deadLetteredAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            DeadLetterInfo.prototype.lastError = "";

            DeadLetterInfo.create = function(properties) {
                return new DeadLetterInfo(properties);
            };

            DeadLetterInfo.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.sourceTopic != null && $Object.hasOwnProperty.call(message, "sourceTopic") && message.sourceTopic !== "")
                    writer.uint32(10).string(message.sourceTopic);
                if (message.sourceGroup != null && $Object.hasOwnProperty.call(message, "sourceGroup") && message.sourceGroup !== "")
                    writer.uint32(18).string(message.sourceGroup);
                if (message.sourceId != null && $Object.hasOwnProperty.call(message, "sourceId") && (typeof message.sourceId === "object" ? message.sourceId.low || message.sourceId.high : message.sourceId !== 0))
                    writer.uint32(24).uint64(message.sourceId);
                if (message.reason != null && $Object.hasOwnProperty.call(message, "reason") && message.reason !== "")
                    writer.uint32(34).string(message.reason);
                if (message.attempts != null && $Object.hasOwnProperty.call(message, "attempts") && message.attempts !== 0)
                    writer.uint32(40).uint32(message.attempts);
                if (message.deliveredAtMs != null && message.deliveredAtMs.length)
                    writer.uint32(50).int64s(message.deliveredAtMs);
                if (message.sourceKey != null && $Object.hasOwnProperty.call(message, "sourceKey") && message.sourceKey !== "")
                    writer.uint32(58).string(message.sourceKey);
                if (message.deadLetteredAtMs != null && $Object.hasOwnProperty.call(message, "deadLetteredAtMs") && (typeof message.deadLetteredAtMs === "object" ? message.deadLetteredAtMs.low || message.deadLetteredAtMs.high : message.deadLetteredAtMs !== 0))
                    writer.uint32(64).int64(message.deadLetteredAtMs);
                if (message.lastError != null && $Object.hasOwnProperty.call(message, "lastError") && message.lastError !== "")
                    writer.uint32(74).string(message.lastError);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            DeadLetterInfo.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.DeadLetterInfo();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.sourceTopic = value;
                            else
                                delete message.sourceTopic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.sourceGroup = value;
                            else
                                delete message.sourceGroup;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.sourceId = value;
                            else
                                delete message.sourceId;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.reason = value;
                            else
                                delete message.reason;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.attempts = value;
                            else
                                delete message.attempts;
                            continue;
                        }
                    case 6: {
                            if (wireType === 2) {
                                if (!(message.deliveredAtMs && message.deliveredAtMs.length))
                                    message.deliveredAtMs = [];
                                reader.int64s(message.deliveredAtMs);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.deliveredAtMs && message.deliveredAtMs.length))
                                message.deliveredAtMs = [];
                            message.deliveredAtMs.push(reader.int64());
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.sourceKey = value;
                            else
                                delete message.sourceKey;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.deadLetteredAtMs = value;
                            else
                                delete message.deadLetteredAtMs;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.lastError = value;
                            else
                                delete message.lastError;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            DeadLetterInfo.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.DeadLetterInfo";
            };

            return DeadLetterInfo;
        })();

        v1.QueueEntry = (function() {

            const QueueEntry = function (properties) {
                this.deliveredAtMs = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            QueueEntry.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            QueueEntry.prototype.topic = "";
            QueueEntry.prototype.group = "";
            QueueEntry.prototype.dueAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            QueueEntry.prototype.attempt = 0;
            QueueEntry.prototype.inFlight = false;
            QueueEntry.prototype.deliveredAtMs = $util.emptyArray;
            QueueEntry.prototype.expireAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            QueueEntry.prototype.indexImplied = false;
            QueueEntry.prototype.leaseEndMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            QueueEntry.prototype.indexUnwritten = false;
            QueueEntry.prototype.leaseSerial = 0;
            QueueEntry.prototype.leaseConsumer = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            QueueEntry.prototype.lastError = "";
            QueueEntry.prototype.body = null;
            QueueEntry.prototype.orderingKey = "";
            QueueEntry.prototype.deliverBeforeMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            QueueEntry.prototype.ordered = false;

            QueueEntry.create = function(properties) {
                return new QueueEntry(properties);
            };

            QueueEntry.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(8).uint64(message.id);
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(18).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(26).string(message.group);
                if (message.dueAtMs != null && $Object.hasOwnProperty.call(message, "dueAtMs") && (typeof message.dueAtMs === "object" ? message.dueAtMs.low || message.dueAtMs.high : message.dueAtMs !== 0))
                    writer.uint32(32).int64(message.dueAtMs);
                if (message.attempt != null && $Object.hasOwnProperty.call(message, "attempt") && message.attempt !== 0)
                    writer.uint32(40).uint32(message.attempt);
                if (message.inFlight != null && $Object.hasOwnProperty.call(message, "inFlight") && message.inFlight !== false)
                    writer.uint32(48).bool(message.inFlight);
                if (message.deliveredAtMs != null && message.deliveredAtMs.length)
                    writer.uint32(58).int64s(message.deliveredAtMs);
                if (message.expireAtMs != null && $Object.hasOwnProperty.call(message, "expireAtMs") && (typeof message.expireAtMs === "object" ? message.expireAtMs.low || message.expireAtMs.high : message.expireAtMs !== 0))
                    writer.uint32(64).int64(message.expireAtMs);
                if (message.indexImplied != null && $Object.hasOwnProperty.call(message, "indexImplied") && message.indexImplied !== false)
                    writer.uint32(72).bool(message.indexImplied);
                if (message.leaseEndMs != null && $Object.hasOwnProperty.call(message, "leaseEndMs") && (typeof message.leaseEndMs === "object" ? message.leaseEndMs.low || message.leaseEndMs.high : message.leaseEndMs !== 0))
                    writer.uint32(80).int64(message.leaseEndMs);
                if (message.indexUnwritten != null && $Object.hasOwnProperty.call(message, "indexUnwritten") && message.indexUnwritten !== false)
                    writer.uint32(88).bool(message.indexUnwritten);
                if (message.leaseSerial != null && $Object.hasOwnProperty.call(message, "leaseSerial") && message.leaseSerial !== 0)
                    writer.uint32(96).uint32(message.leaseSerial);
                if (message.leaseConsumer != null && $Object.hasOwnProperty.call(message, "leaseConsumer") && (typeof message.leaseConsumer === "object" ? message.leaseConsumer.low || message.leaseConsumer.high : message.leaseConsumer !== 0))
                    writer.uint32(104).uint64(message.leaseConsumer);
                if (message.lastError != null && $Object.hasOwnProperty.call(message, "lastError") && message.lastError !== "")
                    writer.uint32(114).string(message.lastError);
                if (message.body != null && $Object.hasOwnProperty.call(message, "body"))
                    $root.fermata.v1.StoredMessage.encode(message.body, writer.uint32(122).fork(), _depth + 1).ldelim();
                if (message.orderingKey != null && $Object.hasOwnProperty.call(message, "orderingKey") && message.orderingKey !== "")
                    writer.uint32(130).string(message.orderingKey);
                if (message.deliverBeforeMs != null && $Object.hasOwnProperty.call(message, "deliverBeforeMs") && (typeof message.deliverBeforeMs === "object" ? message.deliverBeforeMs.low || message.deliverBeforeMs.high : message.deliverBeforeMs !== 0))
                    writer.uint32(136).int64(message.deliverBeforeMs);
                if (message.ordered != null && $Object.hasOwnProperty.call(message, "ordered") && message.ordered !== false)
                    writer.uint32(144).bool(message.ordered);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            QueueEntry.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.QueueEntry();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.dueAtMs = value;
                            else
                                delete message.dueAtMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.attempt = value;
                            else
                                delete message.attempt;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.inFlight = value;
                            else
                                delete message.inFlight;
                            continue;
                        }
                    case 7: {
                            if (wireType === 2) {
                                if (!(message.deliveredAtMs && message.deliveredAtMs.length))
                                    message.deliveredAtMs = [];
                                reader.int64s(message.deliveredAtMs);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.deliveredAtMs && message.deliveredAtMs.length))
                                message.deliveredAtMs = [];
                            message.deliveredAtMs.push(reader.int64());
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.expireAtMs = value;
                            else
                                delete message.expireAtMs;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.indexImplied = value;
                            else
                                delete message.indexImplied;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseEndMs = value;
                            else
                                delete message.leaseEndMs;
                            continue;
                        }
                    case 11: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.indexUnwritten = value;
                            else
                                delete message.indexUnwritten;
                            continue;
                        }
                    case 12: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.leaseSerial = value;
                            else
                                delete message.leaseSerial;
                            continue;
                        }
                    case 13: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseConsumer = value;
                            else
                                delete message.leaseConsumer;
                            continue;
                        }
                    case 14: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.lastError = value;
                            else
                                delete message.lastError;
                            continue;
                        }
                    case 15: {
                            if (wireType !== 2)
                                break;
                            message.body = $root.fermata.v1.StoredMessage.decode(reader, reader.size(), $undefined, _depth + 1, message.body);
                            continue;
                        }
                    case 16: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.orderingKey = value;
                            else
                                delete message.orderingKey;
                            continue;
                        }
                    case 17: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.deliverBeforeMs = value;
                            else
                                delete message.deliverBeforeMs;
                            continue;
                        }
                    case 18: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.ordered = value;
                            else
                                delete message.ordered;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            QueueEntry.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.QueueEntry";
            };

            return QueueEntry;
        })();

        v1.LeaseRecord = (function() {

            const LeaseRecord = function (properties) {
                this.startOffsets = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            LeaseRecord.prototype.topic = "";
            LeaseRecord.prototype.group = "";
            LeaseRecord.prototype.queue = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseRecord.prototype.consumer = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            LeaseRecord.prototype.nowMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            LeaseRecord.prototype.leaseMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            LeaseRecord.prototype.keys = $util.newBuffer([]);
            LeaseRecord.prototype.startOffsets = $util.emptyArray;
            LeaseRecord.prototype.sideRecords = $util.newBuffer([]);

            LeaseRecord.create = function(properties) {
                return new LeaseRecord(properties);
            };

            LeaseRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.queue != null && $Object.hasOwnProperty.call(message, "queue") && (typeof message.queue === "object" ? message.queue.low || message.queue.high : message.queue !== 0))
                    writer.uint32(25).fixed64(message.queue);
                if (message.consumer != null && $Object.hasOwnProperty.call(message, "consumer") && (typeof message.consumer === "object" ? message.consumer.low || message.consumer.high : message.consumer !== 0))
                    writer.uint32(32).uint64(message.consumer);
                if (message.nowMs != null && $Object.hasOwnProperty.call(message, "nowMs") && (typeof message.nowMs === "object" ? message.nowMs.low || message.nowMs.high : message.nowMs !== 0))
                    writer.uint32(40).int64(message.nowMs);
                if (message.leaseMs != null && $Object.hasOwnProperty.call(message, "leaseMs") && (typeof message.leaseMs === "object" ? message.leaseMs.low || message.leaseMs.high : message.leaseMs !== 0))
                    writer.uint32(48).int64(message.leaseMs);
                if (message.keys != null && $Object.hasOwnProperty.call(message, "keys") && message.keys.length)
                    writer.uint32(58).bytes(message.keys);
                if (message.startOffsets != null && message.startOffsets.length)
                    writer.uint32(66).uint64s(message.startOffsets);
                if (message.sideRecords != null && $Object.hasOwnProperty.call(message, "sideRecords") && message.sideRecords.length)
                    writer.uint32(74).bytes(message.sideRecords);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            LeaseRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.LeaseRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 1)
                                break;
                            if (typeof (value = reader.fixed64()) === "object" ? value.low || value.high : value !== 0)
                                message.queue = value;
                            else
                                delete message.queue;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.consumer = value;
                            else
                                delete message.consumer;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.nowMs = value;
                            else
                                delete message.nowMs;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.leaseMs = value;
                            else
                                delete message.leaseMs;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.keys = value;
                            else
                                delete message.keys;
                            continue;
                        }
                    case 8: {
                            if (wireType === 2) {
                                if (!(message.startOffsets && message.startOffsets.length))
                                    message.startOffsets = [];
                                reader.uint64s(message.startOffsets);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.startOffsets && message.startOffsets.length))
                                message.startOffsets = [];
                            message.startOffsets.push(reader.uint64());
                            continue;
                        }
                    case 9: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.sideRecords = value;
                            else
                                delete message.sideRecords;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            LeaseRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.LeaseRecord";
            };

            return LeaseRecord;
        })();

        v1.LeaseSettles = (function() {

            const LeaseSettles = function (properties) {
                this.extended = [];
                this.extendedEndMs = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            LeaseSettles.prototype.settled = $util.newBuffer([]);
            LeaseSettles.prototype.extended = $util.emptyArray;
            LeaseSettles.prototype.extendedEndMs = $util.emptyArray;

            LeaseSettles.create = function(properties) {
                return new LeaseSettles(properties);
            };

            LeaseSettles.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.settled != null && $Object.hasOwnProperty.call(message, "settled") && message.settled.length)
                    writer.uint32(10).bytes(message.settled);
                if (message.extended != null && message.extended.length)
                    writer.uint32(18).uint32s(message.extended);
                if (message.extendedEndMs != null && message.extendedEndMs.length)
                    writer.uint32(26).int64s(message.extendedEndMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            LeaseSettles.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.LeaseSettles();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.settled = value;
                            else
                                delete message.settled;
                            continue;
                        }
                    case 2: {
                            if (wireType === 2) {
                                if (!(message.extended && message.extended.length))
                                    message.extended = [];
                                reader.uint32s(message.extended);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.extended && message.extended.length))
                                message.extended = [];
                            message.extended.push(reader.uint32());
                            continue;
                        }
                    case 3: {
                            if (wireType === 2) {
                                if (!(message.extendedEndMs && message.extendedEndMs.length))
                                    message.extendedEndMs = [];
                                reader.int64s(message.extendedEndMs);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.extendedEndMs && message.extendedEndMs.length))
                                message.extendedEndMs = [];
                            message.extendedEndMs.push(reader.int64());
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            LeaseSettles.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.LeaseSettles";
            };

            return LeaseSettles;
        })();

        v1.PublishRecord = (function() {

            const PublishRecord = function (properties) {
                this.queues = [];
                this.idDeltas = [];
                this.queueIndex = [];
                this.dueDeltas = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PublishRecord.prototype.queues = $util.emptyArray;
            PublishRecord.prototype.idDeltas = $util.emptyArray;
            PublishRecord.prototype.queueIndex = $util.emptyArray;
            PublishRecord.prototype.dueDeltas = $util.emptyArray;
            PublishRecord.prototype.latestDueMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            PublishRecord.create = function(properties) {
                return new PublishRecord(properties);
            };

            PublishRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.queues != null && message.queues.length)
                    writer.uint32(10).fixed64s(message.queues);
                if (message.idDeltas != null && message.idDeltas.length)
                    writer.uint32(18).uint64s(message.idDeltas);
                if (message.queueIndex != null && message.queueIndex.length)
                    writer.uint32(26).uint32s(message.queueIndex);
                if (message.dueDeltas != null && message.dueDeltas.length)
                    writer.uint32(34).sint64s(message.dueDeltas);
                if (message.latestDueMs != null && $Object.hasOwnProperty.call(message, "latestDueMs") && (typeof message.latestDueMs === "object" ? message.latestDueMs.low || message.latestDueMs.high : message.latestDueMs !== 0))
                    writer.uint32(40).int64(message.latestDueMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PublishRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PublishRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType === 2) {
                                if (!(message.queues && message.queues.length))
                                    message.queues = [];
                                reader.fixed64s(message.queues);
                                continue;
                            }
                            if (wireType !== 1)
                                break;
                            if (!(message.queues && message.queues.length))
                                message.queues = [];
                            message.queues.push(reader.fixed64());
                            continue;
                        }
                    case 2: {
                            if (wireType === 2) {
                                if (!(message.idDeltas && message.idDeltas.length))
                                    message.idDeltas = [];
                                reader.uint64s(message.idDeltas);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.idDeltas && message.idDeltas.length))
                                message.idDeltas = [];
                            message.idDeltas.push(reader.uint64());
                            continue;
                        }
                    case 3: {
                            if (wireType === 2) {
                                if (!(message.queueIndex && message.queueIndex.length))
                                    message.queueIndex = [];
                                reader.uint32s(message.queueIndex);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.queueIndex && message.queueIndex.length))
                                message.queueIndex = [];
                            message.queueIndex.push(reader.uint32());
                            continue;
                        }
                    case 4: {
                            if (wireType === 2) {
                                if (!(message.dueDeltas && message.dueDeltas.length))
                                    message.dueDeltas = [];
                                reader.sint64s(message.dueDeltas);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.dueDeltas && message.dueDeltas.length))
                                message.dueDeltas = [];
                            message.dueDeltas.push(reader.sint64());
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.latestDueMs = value;
                            else
                                delete message.latestDueMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PublishRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PublishRecord";
            };

            return PublishRecord;
        })();

        v1.GroupOutcome = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "GROUP_OUTCOME_LIVE"] = 0;
            values[valuesById[1] = "GROUP_OUTCOME_DONE"] = 1;
            values[valuesById[2] = "GROUP_OUTCOME_DEAD_LETTERED"] = 2;
            values[valuesById[3] = "GROUP_OUTCOME_EXPIRED"] = 3;
            values[valuesById[4] = "GROUP_OUTCOME_REMOVED"] = 4;
            return values;
        })();

        v1.GroupRef = (function() {

            const GroupRef = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            GroupRef.prototype.group = "";
            GroupRef.prototype.tag = $util.newBuffer([]);
            GroupRef.prototype.outcome = 0;

            GroupRef.create = function(properties) {
                return new GroupRef(properties);
            };

            GroupRef.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(10).string(message.group);
                if (message.tag != null && $Object.hasOwnProperty.call(message, "tag") && message.tag.length)
                    writer.uint32(18).bytes(message.tag);
                if (message.outcome != null && $Object.hasOwnProperty.call(message, "outcome") && message.outcome !== 0)
                    writer.uint32(24).int32(message.outcome);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            GroupRef.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.GroupRef();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.tag = value;
                            else
                                delete message.tag;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.outcome = value;
                            else
                                delete message.outcome;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            GroupRef.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.GroupRef";
            };

            return GroupRef;
        })();

        v1.MessageIndex = (function() {

            const MessageIndex = function (properties) {
                this.groups = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            MessageIndex.prototype.topic = "";
            MessageIndex.prototype.key = "";
            MessageIndex.prototype.expireAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            MessageIndex.prototype.groups = $util.emptyArray;
            MessageIndex.prototype.done = false;
            MessageIndex.prototype.endedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            MessageIndex.create = function(properties) {
                return new MessageIndex(properties);
            };

            MessageIndex.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key !== "")
                    writer.uint32(18).string(message.key);
                if (message.expireAtMs != null && $Object.hasOwnProperty.call(message, "expireAtMs") && (typeof message.expireAtMs === "object" ? message.expireAtMs.low || message.expireAtMs.high : message.expireAtMs !== 0))
                    writer.uint32(24).int64(message.expireAtMs);
                if (message.groups != null && message.groups.length)
                    for (let i = 0; i < message.groups.length; ++i)
                        $root.fermata.v1.GroupRef.encode(message.groups[i], writer.uint32(34).fork(), _depth + 1).ldelim();
                if (message.done != null && $Object.hasOwnProperty.call(message, "done") && message.done !== false)
                    writer.uint32(40).bool(message.done);
                if (message.endedAtMs != null && $Object.hasOwnProperty.call(message, "endedAtMs") && (typeof message.endedAtMs === "object" ? message.endedAtMs.low || message.endedAtMs.high : message.endedAtMs !== 0))
                    writer.uint32(48).int64(message.endedAtMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            MessageIndex.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.MessageIndex();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.key = value;
                            else
                                delete message.key;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.expireAtMs = value;
                            else
                                delete message.expireAtMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (!(message.groups && message.groups.length))
                                message.groups = [];
                            message.groups.push($root.fermata.v1.GroupRef.decode(reader, reader.size(), $undefined, _depth + 1));
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.done = value;
                            else
                                delete message.done;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.endedAtMs = value;
                            else
                                delete message.endedAtMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            MessageIndex.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.MessageIndex";
            };

            return MessageIndex;
        })();

        v1.RequestRecord = (function() {

            const RequestRecord = function (properties) {
                this.dueOffsetMs = [];
                this.existingIndex = [];
                this.existingId = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            RequestRecord.prototype.firstId = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            RequestRecord.prototype.appliedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            RequestRecord.prototype.dueOffsetMs = $util.emptyArray;
            RequestRecord.prototype.existingIndex = $util.emptyArray;
            RequestRecord.prototype.existingId = $util.emptyArray;
            RequestRecord.prototype.windowEndMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            RequestRecord.create = function(properties) {
                return new RequestRecord(properties);
            };

            RequestRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.firstId != null && $Object.hasOwnProperty.call(message, "firstId") && (typeof message.firstId === "object" ? message.firstId.low || message.firstId.high : message.firstId !== 0))
                    writer.uint32(8).uint64(message.firstId);
                if (message.appliedAtMs != null && $Object.hasOwnProperty.call(message, "appliedAtMs") && (typeof message.appliedAtMs === "object" ? message.appliedAtMs.low || message.appliedAtMs.high : message.appliedAtMs !== 0))
                    writer.uint32(16).int64(message.appliedAtMs);
                if (message.dueOffsetMs != null && message.dueOffsetMs.length)
                    writer.uint32(26).sint64s(message.dueOffsetMs);
                if (message.existingIndex != null && message.existingIndex.length)
                    writer.uint32(34).uint32s(message.existingIndex);
                if (message.existingId != null && message.existingId.length)
                    writer.uint32(42).uint64s(message.existingId);
                if (message.windowEndMs != null && $Object.hasOwnProperty.call(message, "windowEndMs") && (typeof message.windowEndMs === "object" ? message.windowEndMs.low || message.windowEndMs.high : message.windowEndMs !== 0))
                    writer.uint32(48).int64(message.windowEndMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            RequestRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.RequestRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.firstId = value;
                            else
                                delete message.firstId;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.appliedAtMs = value;
                            else
                                delete message.appliedAtMs;
                            continue;
                        }
                    case 3: {
                            if (wireType === 2) {
                                if (!(message.dueOffsetMs && message.dueOffsetMs.length))
                                    message.dueOffsetMs = [];
                                reader.sint64s(message.dueOffsetMs);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.dueOffsetMs && message.dueOffsetMs.length))
                                message.dueOffsetMs = [];
                            message.dueOffsetMs.push(reader.sint64());
                            continue;
                        }
                    case 4: {
                            if (wireType === 2) {
                                if (!(message.existingIndex && message.existingIndex.length))
                                    message.existingIndex = [];
                                reader.uint32s(message.existingIndex);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.existingIndex && message.existingIndex.length))
                                message.existingIndex = [];
                            message.existingIndex.push(reader.uint32());
                            continue;
                        }
                    case 5: {
                            if (wireType === 2) {
                                if (!(message.existingId && message.existingId.length))
                                    message.existingId = [];
                                reader.uint64s(message.existingId);
                                continue;
                            }
                            if (wireType !== 0)
                                break;
                            if (!(message.existingId && message.existingId.length))
                                message.existingId = [];
                            message.existingId.push(reader.uint64());
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.windowEndMs = value;
                            else
                                delete message.windowEndMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            RequestRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.RequestRecord";
            };

            return RequestRecord;
        })();

        v1.KeyRecord = (function() {

            const KeyRecord = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            KeyRecord.prototype.id = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            KeyRecord.prototype.endedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            KeyRecord.prototype.windowEndMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;

            KeyRecord.create = function(properties) {
                return new KeyRecord(properties);
            };

            KeyRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.id != null && $Object.hasOwnProperty.call(message, "id") && (typeof message.id === "object" ? message.id.low || message.id.high : message.id !== 0))
                    writer.uint32(8).uint64(message.id);
                if (message.endedAtMs != null && $Object.hasOwnProperty.call(message, "endedAtMs") && (typeof message.endedAtMs === "object" ? message.endedAtMs.low || message.endedAtMs.high : message.endedAtMs !== 0))
                    writer.uint32(16).int64(message.endedAtMs);
                if (message.windowEndMs != null && $Object.hasOwnProperty.call(message, "windowEndMs") && (typeof message.windowEndMs === "object" ? message.windowEndMs.low || message.windowEndMs.high : message.windowEndMs !== 0))
                    writer.uint32(24).int64(message.windowEndMs);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            KeyRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.KeyRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.id = value;
                            else
                                delete message.id;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.endedAtMs = value;
                            else
                                delete message.endedAtMs;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.windowEndMs = value;
                            else
                                delete message.windowEndMs;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            KeyRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.KeyRecord";
            };

            return KeyRecord;
        })();

        v1.TopicRecord = (function() {

            const TopicRecord = function (properties) {
                this.groups = [];
                this.deletingGroups = [];
                this.groupSettings = {};
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            TopicRecord.prototype.name = "";
            TopicRecord.prototype.settings = null;
            TopicRecord.prototype.groups = $util.emptyArray;
            TopicRecord.prototype.createdAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            TopicRecord.prototype.deleting = false;
            TopicRecord.prototype.deletingGroups = $util.emptyArray;
            TopicRecord.prototype.groupSettings = $util.emptyObject;

            TopicRecord.create = function(properties) {
                return new TopicRecord(properties);
            };

            TopicRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.name != null && $Object.hasOwnProperty.call(message, "name") && message.name !== "")
                    writer.uint32(10).string(message.name);
                if (message.settings != null && $Object.hasOwnProperty.call(message, "settings"))
                    $root.fermata.v1.TopicSettings.encode(message.settings, writer.uint32(18).fork(), _depth + 1).ldelim();
                if (message.groups != null && message.groups.length)
                    for (let i = 0; i < message.groups.length; ++i)
                        writer.uint32(26).string(message.groups[i]);
                if (message.createdAtMs != null && $Object.hasOwnProperty.call(message, "createdAtMs") && (typeof message.createdAtMs === "object" ? message.createdAtMs.low || message.createdAtMs.high : message.createdAtMs !== 0))
                    writer.uint32(32).int64(message.createdAtMs);
                if (message.deleting != null && $Object.hasOwnProperty.call(message, "deleting") && message.deleting !== false)
                    writer.uint32(40).bool(message.deleting);
                if (message.deletingGroups != null && message.deletingGroups.length)
                    for (let i = 0; i < message.deletingGroups.length; ++i)
                        writer.uint32(50).string(message.deletingGroups[i]);
                if (message.groupSettings != null && $Object.hasOwnProperty.call(message, "groupSettings"))
                    for (let keys = $Object.keys(message.groupSettings), i = 0; i < keys.length; ++i) {
                        writer.uint32(58).fork().uint32(10).string(keys[i]);
                        $root.fermata.v1.GroupSettings.encode(message.groupSettings[keys[i]], writer.uint32(18).fork(), _depth + 1).ldelim().ldelim();
                    }
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            TopicRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, key, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.TopicRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.name = value;
                            else
                                delete message.name;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            message.settings = $root.fermata.v1.TopicSettings.decode(reader, reader.size(), $undefined, _depth + 1, message.settings);
                            continue;
                        }
                    case 3: {
                            if (wireType !== 2)
                                break;
                            if (!(message.groups && message.groups.length))
                                message.groups = [];
                            message.groups.push(reader.stringVerify());
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.createdAtMs = value;
                            else
                                delete message.createdAtMs;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.deleting = value;
                            else
                                delete message.deleting;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 2)
                                break;
                            if (!(message.deletingGroups && message.deletingGroups.length))
                                message.deletingGroups = [];
                            message.deletingGroups.push(reader.stringVerify());
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if (message.groupSettings === $util.emptyObject)
                                message.groupSettings = {};
                            let end2 = reader.size() + reader.pos;
                            if (end2 > reader.len)
                                throw $RangeError("index out of range");
                            reader.len = end2;
                            key = "";
                            value = null;
                            while (reader.pos < end2) {
                                let tag2 = reader.tag();
                                wireType = tag2 & 7;
                                switch (tag2 >>>= 3) {
                                case 1:
                                    if (wireType !== 2)
                                        break;
                                    key = reader.stringVerify();
                                    continue;
                                case 2:
                                    if (wireType !== 2)
                                        break;
                                    value = $root.fermata.v1.GroupSettings.decode(reader, reader.size(), $undefined, _depth + 1, value);
                                    continue;
                                }
                                reader.skipType(wireType, _depth, tag2);
                            }
                            if (reader.pos !== end2)
                                throw $RangeError("index out of range");
                            reader.len = end;
                            if (key === "__proto__")
                                $util.makeProp(message.groupSettings, key);
                            message.groupSettings[key] = value || new $root.fermata.v1.GroupSettings();
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            TopicRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.TopicRecord";
            };

            return TopicRecord;
        })();

        v1.PurgePhase = (function() {
            const valuesById = $Object.create(null), values = $Object.create(valuesById);
            values[valuesById[0] = "PURGE_PHASE_UNSPECIFIED"] = 0;
            values[valuesById[1] = "PURGE_PHASE_ENTRIES"] = 1;
            values[valuesById[2] = "PURGE_PHASE_KEYS"] = 2;
            values[valuesById[3] = "PURGE_PHASE_SCHEDULES"] = 3;
            return values;
        })();

        v1.PurgeRecord = (function() {

            const PurgeRecord = function (properties) {
                this.groups = [];
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            PurgeRecord.prototype.topic = "";
            PurgeRecord.prototype.group = "";
            PurgeRecord.prototype.startedAtMs = $util.Long ? $util.Long.fromBits(0,0,false) : 0;
            PurgeRecord.prototype.groups = $util.emptyArray;
            PurgeRecord.prototype.phase = 0;
            PurgeRecord.prototype.groupIndex = 0;
            PurgeRecord.prototype.cursor = $util.newBuffer([]);
            PurgeRecord.prototype.entriesAtStart = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PurgeRecord.prototype.removedEntries = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            PurgeRecord.prototype.removedRecords = $util.Long ? $util.Long.fromBits(0,0,true) : 0;

            PurgeRecord.create = function(properties) {
                return new PurgeRecord(properties);
            };

            PurgeRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.startedAtMs != null && $Object.hasOwnProperty.call(message, "startedAtMs") && (typeof message.startedAtMs === "object" ? message.startedAtMs.low || message.startedAtMs.high : message.startedAtMs !== 0))
                    writer.uint32(24).int64(message.startedAtMs);
                if (message.groups != null && message.groups.length)
                    for (let i = 0; i < message.groups.length; ++i)
                        writer.uint32(34).string(message.groups[i]);
                if (message.phase != null && $Object.hasOwnProperty.call(message, "phase") && message.phase !== 0)
                    writer.uint32(40).int32(message.phase);
                if (message.groupIndex != null && $Object.hasOwnProperty.call(message, "groupIndex") && message.groupIndex !== 0)
                    writer.uint32(48).uint32(message.groupIndex);
                if (message.cursor != null && $Object.hasOwnProperty.call(message, "cursor") && message.cursor.length)
                    writer.uint32(58).bytes(message.cursor);
                if (message.entriesAtStart != null && $Object.hasOwnProperty.call(message, "entriesAtStart") && (typeof message.entriesAtStart === "object" ? message.entriesAtStart.low || message.entriesAtStart.high : message.entriesAtStart !== 0))
                    writer.uint32(64).uint64(message.entriesAtStart);
                if (message.removedEntries != null && $Object.hasOwnProperty.call(message, "removedEntries") && (typeof message.removedEntries === "object" ? message.removedEntries.low || message.removedEntries.high : message.removedEntries !== 0))
                    writer.uint32(72).uint64(message.removedEntries);
                if (message.removedRecords != null && $Object.hasOwnProperty.call(message, "removedRecords") && (typeof message.removedRecords === "object" ? message.removedRecords.low || message.removedRecords.high : message.removedRecords !== 0))
                    writer.uint32(80).uint64(message.removedRecords);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            PurgeRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.PurgeRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.int64()) === "object" ? value.low || value.high : value !== 0)
                                message.startedAtMs = value;
                            else
                                delete message.startedAtMs;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 2)
                                break;
                            if (!(message.groups && message.groups.length))
                                message.groups = [];
                            message.groups.push(reader.stringVerify());
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.int32())
                                message.phase = value;
                            else
                                delete message.phase;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.uint32())
                                message.groupIndex = value;
                            else
                                delete message.groupIndex;
                            continue;
                        }
                    case 7: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.bytes()).length)
                                message.cursor = value;
                            else
                                delete message.cursor;
                            continue;
                        }
                    case 8: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.entriesAtStart = value;
                            else
                                delete message.entriesAtStart;
                            continue;
                        }
                    case 9: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.removedEntries = value;
                            else
                                delete message.removedEntries;
                            continue;
                        }
                    case 10: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.removedRecords = value;
                            else
                                delete message.removedRecords;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            PurgeRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.PurgeRecord";
            };

            return PurgeRecord;
        })();

        v1.QueueRecord = (function() {

            const QueueRecord = function (properties) {
                if (properties)
                    for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                        if (properties[keys[i]] != null && keys[i] !== "__proto__")
                            this[keys[i]] = properties[keys[i]];
            };

            QueueRecord.prototype.topic = "";
            QueueRecord.prototype.group = "";
            QueueRecord.prototype.pending = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            QueueRecord.prototype.inFlight = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            QueueRecord.prototype.deadLettered = $util.Long ? $util.Long.fromBits(0,0,true) : 0;
            QueueRecord.prototype.dueLoad = false;

            QueueRecord.create = function(properties) {
                return new QueueRecord(properties);
            };

            QueueRecord.encode = function (message, writer, _depth) {
                if (!writer)
                    writer = $Writer.create();
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $util.recursionLimit)
                    throw $Error("max depth exceeded");
                if (message.topic != null && $Object.hasOwnProperty.call(message, "topic") && message.topic !== "")
                    writer.uint32(10).string(message.topic);
                if (message.group != null && $Object.hasOwnProperty.call(message, "group") && message.group !== "")
                    writer.uint32(18).string(message.group);
                if (message.pending != null && $Object.hasOwnProperty.call(message, "pending") && (typeof message.pending === "object" ? message.pending.low || message.pending.high : message.pending !== 0))
                    writer.uint32(24).uint64(message.pending);
                if (message.inFlight != null && $Object.hasOwnProperty.call(message, "inFlight") && (typeof message.inFlight === "object" ? message.inFlight.low || message.inFlight.high : message.inFlight !== 0))
                    writer.uint32(32).uint64(message.inFlight);
                if (message.deadLettered != null && $Object.hasOwnProperty.call(message, "deadLettered") && (typeof message.deadLettered === "object" ? message.deadLettered.low || message.deadLettered.high : message.deadLettered !== 0))
                    writer.uint32(40).uint64(message.deadLettered);
                if (message.dueLoad != null && $Object.hasOwnProperty.call(message, "dueLoad") && message.dueLoad !== false)
                    writer.uint32(48).bool(message.dueLoad);
                if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                    for (let i = 0; i < message.$unknowns.length; ++i)
                        writer.raw(message.$unknowns[i]);
                return writer;
            };

            QueueRecord.decode = function (reader, length, _end, _depth, _target) {
                if (!(reader instanceof $Reader))
                    reader = $Reader.create(reader);
                if (_depth === $undefined)
                    _depth = 0;
                if (_depth > $Reader.recursionLimit)
                    throw $Error("max depth exceeded");
                let end, message, value;
                if (length === $undefined)
                    end = reader.len;
                else {
                    end = reader.pos + length;
                    if (end > reader.len)
                        throw $RangeError("index out of range");
                    length = reader.len;
                    reader.len = end;
                }
                message = _target || new $root.fermata.v1.QueueRecord();
                while (reader.pos < end) {
                    let start = reader.pos;
                    let tag = reader.tag();
                    if (tag === _end) {
                        _end = $undefined;
                        break;
                    }
                    let wireType = tag & 7;
                    switch (tag >>>= 3) {
                    case 1: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.topic = value;
                            else
                                delete message.topic;
                            continue;
                        }
                    case 2: {
                            if (wireType !== 2)
                                break;
                            if ((value = reader.stringVerify()).length)
                                message.group = value;
                            else
                                delete message.group;
                            continue;
                        }
                    case 3: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.pending = value;
                            else
                                delete message.pending;
                            continue;
                        }
                    case 4: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.inFlight = value;
                            else
                                delete message.inFlight;
                            continue;
                        }
                    case 5: {
                            if (wireType !== 0)
                                break;
                            if (typeof (value = reader.uint64()) === "object" ? value.low || value.high : value !== 0)
                                message.deadLettered = value;
                            else
                                delete message.deadLettered;
                            continue;
                        }
                    case 6: {
                            if (wireType !== 0)
                                break;
                            if (value = reader.bool())
                                message.dueLoad = value;
                            else
                                delete message.dueLoad;
                            continue;
                        }
                    }
                    reader.skipType(wireType, _depth, tag);
                    if (!reader.discardUnknown) {
                        $util.makeProp(message, "$unknowns", false);
                        (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                    }
                }
                if (length !== $undefined) {
                    if (reader.pos !== end)
                        throw $RangeError("index out of range");
                    reader.len = length;
                }
                if (_end !== $undefined)
                    throw $Error("missing end group");
                return message;
            };

            QueueRecord.getTypeUrl = function(prefix) {
                if (prefix === $undefined)
                    prefix = "type.googleapis.com";
                return prefix + "/fermata.v1.QueueRecord";
            };

            return QueueRecord;
        })();

        return v1;
    })();

    return fermata;
})();

export {
  $root as default
};
