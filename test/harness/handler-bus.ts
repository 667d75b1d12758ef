import type { CommandBus, ICommandHandler } from '@nestjs/cqrs';

type CommandClass<C> = abstract new (...args: never[]) => C;

/**
 * A command bus for handler specs: hands each command to the handler given
 * for its class, as the CQRS module routes it, without a Nest application;
 * keeps every command it was sent. A command with no handler is refused, as
 * the real bus refuses it.
 */
export class HandlerBus {
  /** Every command sent, in order. */
  readonly sent: object[] = [];
  private readonly handlers = new Map<unknown, ICommandHandler<object>>();

  /** Routes commands of `type` to `handler`. */
  on<C extends object>(type: CommandClass<C>, handler: ICommandHandler<C>): this {
    this.handlers.set(type, handler as ICommandHandler<object>);
    return this;
  }

  async execute<R>(command: object): Promise<R> {
    this.sent.push(command);
    const handler = this.handlers.get(command.constructor);
    if (!handler) throw new Error(`no handler for ${command.constructor.name}`);
    return (await handler.execute(command)) as R;
  }

  /** Commands of `type` sent so far. */
  sentOf<C extends object>(type: CommandClass<C>): C[] {
    return this.sent.filter((command): command is C => command instanceof type);
  }

  /** Where a handler takes `CommandBus`. */
  asCommandBus(): CommandBus {
    return this as unknown as CommandBus;
  }
}
