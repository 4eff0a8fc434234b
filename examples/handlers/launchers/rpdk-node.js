#!/usr/bin/env node
// stacksim's launcher for resource handlers built with the CloudFormation
// plugin library for TypeScript/JavaScript
// (@amazon-web-services-cloudformation/cloudformation-cli-typescript-lib).
//
// It loads the author's compiled handlers module, as it is, and calls the
// library's own entry point with each request stacksim sends, printing
// the library's answer: no adapter in the author's code.
//
//   node rpdk-node.js MODULE [EXPORT]
//
// MODULE is the compiled handlers (dist/handlers.js). EXPORT is the entry
// point to call; by default the one that matches the protocol stacksim
// speaks (STACKSIM_HANDLER_PROTOCOL): `entrypoint` (the Lambda handler,
// with the service's request: exec+rpdk:) or `testEntrypoint` (the local
// test entry point: exec+rpdk-test:). With STACKSIM_HANDLER_MODE=persistent
// (exec+...+persistent:) it serves one request a line until its input
// ends; otherwise it reads one request and exits.
//
//   stacksim --handler 'Acme::Example::Thing=exec+rpdk-test+persistent:node rpdk-node.js dist/handlers.js' ...
//
// Whatever the library or the handler logs (console.log included) goes to
// standard error, which stacksim logs; standard output carries answers
// only.
'use strict';

const path = require('path');
const readline = require('readline');

const out = process.stdout;
// aws-sdk v2, which the library loads, prints a notice of its end of support.
process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE = process.env.AWS_SDK_JS_SUPPRESS_MAINTENANCE_MODE_MESSAGE || '1';
// The library logs with console.log: keep standard output for answers.
for (const level of ['log', 'info', 'debug', 'trace', 'warn']) {
    console[level] = (...args) => console.error(...args);
}

const [modulePath, exportName] = process.argv.slice(2);
if (!modulePath) {
    console.error('usage: node rpdk-node.js MODULE [EXPORT] (MODULE: the compiled handlers, dist/handlers.js)');
    process.exit(2);
}
const protocol = process.env.STACKSIM_HANDLER_PROTOCOL || 'rpdk';
skipLogDeliveryWait(path.dirname(path.resolve(modulePath)));
const entryName = exportName || (protocol === 'rpdk-test' ? 'testEntrypoint' : 'entrypoint');
const handlers = require(path.resolve(modulePath));
const entry = handlers[entryName];
if (typeof entry !== 'function') {
    console.error(`${modulePath} exports no function ${entryName}; it exports: ${Object.keys(handlers).join(', ') || 'nothing'}`);
    process.exit(2);
}

// After each request the library waits a second (utils.delay(1)) for its
// log delivery to CloudWatch to finish. stacksim sends no provider
// credentials, so nothing is delivered and the wait is only time lost: a
// second a request. The launcher makes the library's delay return at
// once (STACKSIM_RPDK_KEEP_DELAY=1 keeps it); the handler's own code is
// untouched.
function skipLogDeliveryWait(fromDir) {
    if (process.env.STACKSIM_RPDK_KEEP_DELAY === '1') {
        return;
    }
    try {
        const utils = require(require.resolve('@amazon-web-services-cloudformation/cloudformation-cli-typescript-lib/dist/utils', { paths: [fromDir] }));
        if (typeof utils.delay === 'function') {
            utils.delay = async () => {};
        }
    } catch (err) {
        console.error(`stacksim launcher: the library's log delivery wait is kept (${err.message})`);
    }
}

// A Lambda context, as far as the library reads one.
function contextOf(request) {
    const id = request.bearerToken || (request.request && request.request.clientRequestToken) || 'stacksim';
    return {
        awsRequestId: id,
        functionName: 'stacksim-handler',
        functionVersion: '$LATEST',
        memoryLimitInMB: 256,
        getRemainingTimeInMillis: () => 60000,
    };
}

async function answer(line) {
    const request = JSON.parse(line);
    const progress = await entry(request, contextOf(request));
    // testEntrypoint answers a ProgressEvent object, entrypoint its
    // serialized form: JSON.stringify gives both as JSON.
    return JSON.stringify(progress);
}

async function main() {
    const persistent = process.env.STACKSIM_HANDLER_MODE === 'persistent';
    const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
    for await (const line of lines) {
        if (!line.trim()) {
            continue;
        }
        out.write((await answer(line)) + '\n');
        if (!persistent) {
            break;
        }
    }
}

main().catch((err) => {
    console.error(err && err.stack ? err.stack : String(err));
    process.exit(1);
});
